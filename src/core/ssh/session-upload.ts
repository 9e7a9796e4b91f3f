import { createHash } from 'node:crypto';
import { MESSAGES_FILE } from '../store/message-log.js';
import { ErrorCode } from '../../shared/error-codes.js';
import { isValidId } from '../../shared/ids.js';
import { sshOriginOf } from '../../shared/ssh-origin.js';
import { decodeLine } from '../store/record-codec.js';
import { BUNDLE_MAX_BYTES, decodeBundle, encodeBundle, landSessionBundle, readSessionBundle, type SessionBundle } from '../relay/session-bundle.js';
import type { SessionStore } from '../store/types.js';
import type { CredentialInfo } from '../transport/session-credentials.js';
import type { Answer, ConnectionContext, EndpointClient, IncomingRequest } from '../transport/types.js';

/**
 * The session's content travelling from a remote box to the laptop over the forwarded socket
 * (issue 22). The laptop's receiver verifies a manifest against its own store, so the remote CLI
 * first sends the landed session (the relay's bundle: session.json, messages.jsonl byte for byte,
 * artifacts/ with the workspace patch) in `session.upload` frames, each well under the wire's
 * frame limit. The last chunk lands it through the relay's landing (staged, fsynced, renamed):
 * one mechanism for both ways a session reaches this desktop from elsewhere.
 */
/** Raw bytes a chunk carries; base64 makes it ~214 KiB, inside MAX_FRAME_BYTES (256 KiB). */
export const UPLOAD_CHUNK_BYTES = 160 * 1024;
/** Chunks a bundle may have at most (BUNDLE_MAX_BYTES / UPLOAD_CHUNK_BYTES, rounded up). */
export const MAX_UPLOAD_CHUNKS = Math.ceil(BUNDLE_MAX_BYTES / UPLOAD_CHUNK_BYTES);
/** Uploads one connection may have open at once: a CLI sends one session at a time. */
export const MAX_UPLOADS_PER_CONNECTION = 2;
/** Bytes held for unfinished uploads across all connections: remote boxes cannot exhaust the desktop's memory. */
export const MAX_PENDING_UPLOAD_BYTES = 2 * BUNDLE_MAX_BYTES;

export interface UploadParams {
  uploadId: string;
  sessionId: string;
  index: number;
  count: number;
  sha256: string;
  data: string;
}

function parseUpload(params: unknown): UploadParams | string {
  const p = params as Partial<UploadParams> | null;
  if (!p || typeof p !== 'object') return 'session.upload needs {uploadId, sessionId, index, count, sha256, data}';
  if (!isValidId(p.uploadId)) return 'session.upload: uploadId is not a valid id';
  if (!isValidId(p.sessionId)) return 'session.upload: sessionId is not a valid id';
  if (!Number.isInteger(p.count) || (p.count as number) < 1 || (p.count as number) > MAX_UPLOAD_CHUNKS) return `session.upload: count must be 1..${MAX_UPLOAD_CHUNKS}`;
  if (!Number.isInteger(p.index) || (p.index as number) < 0 || (p.index as number) >= (p.count as number)) return 'session.upload: index must be 0..count-1';
  if (typeof p.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(p.sha256)) return 'session.upload: sha256 must be 64 lowercase hex digits';
  if (typeof p.data !== 'string' || p.data.length > Math.ceil(UPLOAD_CHUNK_BYTES / 3) * 4 || !/^[A-Za-z0-9+/]*={0,2}$/.test(p.data)) return `session.upload: data must be base64 of at most ${UPLOAD_CHUNK_BYTES} bytes`;
  return p as UploadParams;
}

interface Pending {
  sessionId: string;
  count: number;
  sha256: string;
  chunks: Buffer[];
}

/**
 * The laptop side: one assembler per host. Chunks arrive in order on one connection; an upload
 * left unfinished is dropped when its connection closes. The stamp says where the session came from.
 */
export function createUploadReceiver(store: SessionStore, onLanded: (sessionId: string) => void = () => undefined) {
  const pending = new Map<string, Pending>();
  let pendingBytes = 0;
  const drop = (key: string): void => {
    const upload = pending.get(key);
    if (upload) pendingBytes -= upload.chunks.reduce((n, c) => n + c.length, 0);
    pending.delete(key);
  };
  const perConnection = new WeakMap<ConnectionContext, Set<string>>();

  return async function upload(request: IncomingRequest, connection: ConnectionContext, credential: CredentialInfo): Promise<Answer> {
    const p = parseUpload(request.params);
    if (typeof p === 'string') return { ok: false, code: ErrorCode.BAD_REQUEST, message: p };
    const key = `${credential.id}:${p.uploadId}`;
    let open = perConnection.get(connection);
    if (!open) {
      open = new Set();
      perConnection.set(connection, open);
      const mine = open;
      connection.signal.addEventListener('abort', () => {
        for (const k of mine) drop(k);
      }, { once: true });
    }
    let upload = pending.get(key);
    if (p.index === 0) {
      if (!upload && open.size >= MAX_UPLOADS_PER_CONNECTION) return { ok: false, code: ErrorCode.BAD_REQUEST, message: `at most ${MAX_UPLOADS_PER_CONNECTION} uploads at once on one connection` };
      drop(key); // starting again at 0 replaces what this upload held
      upload = { sessionId: p.sessionId, count: p.count, sha256: p.sha256, chunks: [] };
      pending.set(key, upload);
      open.add(key);
    }
    if (!upload || upload.chunks.length !== p.index || upload.count !== p.count || upload.sha256 !== p.sha256 || upload.sessionId !== p.sessionId) {
      drop(key);
      open.delete(key);
      return { ok: false, code: ErrorCode.BAD_REQUEST, message: `session.upload ${p.uploadId}: chunk ${p.index} arrived out of order or changed its header; start again at 0` };
    }
    const chunk = Buffer.from(p.data, 'base64');
    if (pendingBytes + chunk.length > MAX_PENDING_UPLOAD_BYTES) {
      drop(key);
      open.delete(key);
      return { ok: false, code: ErrorCode.NO_SPACE, message: `the desktop already holds ${MAX_PENDING_UPLOAD_BYTES} bytes of unfinished uploads; retry when they have landed` };
    }
    upload.chunks.push(chunk);
    pendingBytes += chunk.length;
    if (upload.chunks.length < upload.count) return { ok: true, received: upload.chunks.length };

    drop(key);
    open.delete(key);
    const bytes = Buffer.concat(upload.chunks);
    if (createHash('sha256').update(bytes).digest('hex') !== upload.sha256) {
      return { ok: false, code: ErrorCode.VERIFY_MISMATCH, message: `session.upload ${p.uploadId}: the bytes received do not hash to the sha256 announced` };
    }
    const decoded = decodeBundle(bytes);
    if (!decoded.ok) return { ok: false, code: ErrorCode.BAD_REQUEST, message: `session.upload ${p.uploadId}: ${decoded.message}` };
    if (decoded.bundle.sessionId !== upload.sessionId) return { ok: false, code: ErrorCode.BAD_REQUEST, message: `session.upload ${p.uploadId}: the bundle holds session ${decoded.bundle.sessionId}, not ${upload.sessionId}` };
    const existing = await store.getSession(upload.sessionId).catch(() => null);
    if (existing) {
      if (sshOriginOf(existing)?.host !== credential.host) return { ok: false, code: ErrorCode.ACCESS_DENIED, message: `session ${upload.sessionId} already exists on this desktop and did not come from ${credential.host}` };
    }
    const landed = await landSessionBundle(store, decoded.bundle, null, { sshFrom: { host: credential.host, receivedAt: new Date().toISOString() } });
    if (landed === 'present' && !(await sameMessages(store, decoded.bundle))) {
      // Landing never replaces a session: a remote session that grew since it was sent is a new handoff Baton cannot merge yet.
      return { ok: false, code: ErrorCode.CONFLICT, message: `session ${upload.sessionId} is already on this desktop with other messages, and a landed session is never replaced (Baton cannot merge a session that grew after its handoff yet); hand off a new session from ${credential.host}` };
    }
    onLanded(upload.sessionId);
    return { ok: true, landed, sessionId: upload.sessionId };
  };
}

/**
 * True when the landed session holds exactly the bundle's records (a repeated upload). Compared
 * record by record (seq, id, checksum) through the store, so it holds however the store keeps its
 * files on disk (encrypted at rest or not).
 */
async function sameMessages(store: SessionStore, bundle: SessionBundle): Promise<boolean> {
  const sent = bundle.files.find((f) => f.path === MESSAGES_FILE)?.data;
  const here = await store.readMessages(bundle.sessionId).catch(() => null);
  if (sent === undefined || here === null) return false;
  const key = (r: { seq?: unknown; id?: unknown; crc?: unknown }) => `${String(r.seq)}:${String(r.id)}:${String(r.crc)}`;
  // decodeLine reads both record formats (the byte CRC of line-crc.ts and the older canonical `crc`); a damaged line never matches.
  const lines = sent.toString('utf8').split('\n').filter((line) => line.trim().length > 0);
  const sentKeys = lines.map((line) => {
    const record = decodeLine(Buffer.from(line, 'utf8'));
    return record ? key(record) : null;
  });
  return here.length === sentKeys.length && here.every((r, i) => key(r) === sentKeys[i]);
}

/** The remote side: reads the landed session from this box's store and sends it in chunks. */
export async function uploadSession(client: EndpointClient, store: SessionStore, sessionId: string, uploadId: string): Promise<Answer> {
  const bytes = encodeBundle(await readSessionBundle(store, sessionId));
  if (bytes.length > BUNDLE_MAX_BYTES) return { ok: false, code: ErrorCode.BAD_REQUEST, message: `session ${sessionId} is larger than ${BUNDLE_MAX_BYTES} bytes` };
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const count = Math.max(1, Math.ceil(bytes.length / UPLOAD_CHUNK_BYTES));
  let answer: Answer = { ok: false, code: ErrorCode.INTERNAL, message: 'nothing was sent' };
  for (let index = 0; index < count; index++) {
    const data = bytes.subarray(index * UPLOAD_CHUNK_BYTES, (index + 1) * UPLOAD_CHUNK_BYTES).toString('base64');
    answer = await client.request('session.upload', { uploadId, sessionId, index, count, sha256, data });
    if (!answer.ok) return answer;
  }
  return answer;
}
