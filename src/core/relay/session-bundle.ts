import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/index.js';
import { creatingName } from '../store/housekeeping.js';
import { ARTIFACTS_DIR, DIR_MODE, FILE_MODE, SESSIONS_DIR, checkId, liveDir } from '../store/layout.js';
import { MESSAGES_FILE } from '../store/message-log.js';
import { SESSION_FILE } from '../store/session-doc-file.js';
import type { SessionStore } from '../store/types.js';
import { recordCodecFor } from '../store/at-rest/index.js';
import { plaintextLog, sealedLog } from '../store/at-rest/log-lines.js';
import { storeFsFor } from '../store/at-rest/registry.js';

/**
 * A session's files as they travel to another device: session.json, messages.jsonl (byte for byte,
 * so every record's seq, id, epoch and checksum arrive unchanged and the target's receiver can check
 * the manifest's hashes against them) and artifacts/. Sealed before it leaves this module's caller.
 */
export const BUNDLE_VERSION = 1;
/** A bundle larger than this is refused before it is sealed or landed (a 10 MB session is well inside). */
export const BUNDLE_MAX_BYTES = 256 * 1024 * 1024;
const ARTIFACT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export interface BundleFile {
  path: string;
  data: Buffer;
}

export interface SessionBundle {
  v: typeof BUNDLE_VERSION;
  sessionId: string;
  files: BundleFile[];
}

export async function readSessionBundle(store: SessionStore, sessionId: string): Promise<SessionBundle> {
  const dir = store.sessionDir(sessionId);
  // The store's own file system: documents and artifacts come back as plaintext when it is encrypted
  // at rest, and message records are opened line by line (the bundle is sealed for the other device).
  const fs = storeFsFor(dir);
  const files: BundleFile[] = [];
  files.push({ path: SESSION_FILE, data: await fs.readFile(join(dir, SESSION_FILE)) });
  files.push({ path: MESSAGES_FILE, data: plaintextLog(recordCodecFor(fs, dir), await fs.readFile(join(dir, MESSAGES_FILE))) });
  const artifacts = await fs.readdir(join(dir, ARTIFACTS_DIR)).catch(() => [] as string[]);
  for (const name of artifacts.sort()) {
    if (!ARTIFACT_NAME.test(name) || name.endsWith('.tmp')) continue;
    files.push({ path: `${ARTIFACTS_DIR}/${name}`, data: await fs.readFile(join(dir, ARTIFACTS_DIR, name)) });
  }
  return { v: BUNDLE_VERSION, sessionId, files };
}

export type BundleCheck = { ok: true; bundle: SessionBundle } | { ok: false; message: string };

const HEADER_MAX_BYTES = 1024 * 1024;

/** Binary form: a 4-byte header length, the header (ids, paths and sizes as JSON), then the files' bytes. */
export function encodeBundle(bundle: SessionBundle): Buffer {
  const header = Buffer.from(JSON.stringify({ v: bundle.v, sessionId: bundle.sessionId, files: bundle.files.map((f) => ({ path: f.path, size: f.data.length })) }));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  return Buffer.concat([length, header, ...bundle.files.map((f) => f.data)]);
}

export function decodeBundle(bytes: Uint8Array): BundleCheck {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (data.length < 4) return { ok: false, message: 'the bundle is truncated' };
  const headerLength = data.readUInt32BE(0);
  if (headerLength > HEADER_MAX_BYTES || 4 + headerLength > data.length) return { ok: false, message: 'the bundle header is damaged' };
  let header: { v?: unknown; sessionId?: unknown; files?: Array<{ path?: unknown; size?: unknown }> };
  try {
    header = JSON.parse(data.subarray(4, 4 + headerLength).toString('utf8')) as typeof header;
  } catch {
    return { ok: false, message: 'the bundle header is not JSON' };
  }
  if (!Array.isArray(header.files)) return { ok: false, message: 'not a version-1 session bundle' };
  let at = 4 + headerLength;
  const files: BundleFile[] = [];
  for (const f of header.files) {
    if (typeof f.size !== 'number' || !Number.isInteger(f.size) || f.size < 0 || at + f.size > data.length) return { ok: false, message: 'a bundle file runs past the end' };
    files.push({ path: f.path as string, data: data.subarray(at, at + f.size) });
    at += f.size;
  }
  if (at !== data.length) return { ok: false, message: 'bytes after the last bundle file' };
  return checkBundle({ v: header.v, sessionId: header.sessionId, files });
}

/** Only the three kinds of path a session holds; nothing that could climb out of the session directory. */
export function checkBundle(value: unknown): BundleCheck {
  const b = value as Partial<SessionBundle> | null;
  if (!b || b.v !== BUNDLE_VERSION || typeof b.sessionId !== 'string' || !Array.isArray(b.files)) return { ok: false, message: 'not a version-1 session bundle' };
  try {
    checkId(b.sessionId);
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
  const seen = new Set<string>();
  let bytes = 0;
  for (const f of b.files as Partial<BundleFile>[]) {
    if (typeof f?.path !== 'string' || !Buffer.isBuffer(f.data)) return { ok: false, message: 'a bundle file without path or data' };
    const okPath = f.path === SESSION_FILE || f.path === MESSAGES_FILE || (f.path.startsWith(`${ARTIFACTS_DIR}/`) && ARTIFACT_NAME.test(f.path.slice(ARTIFACTS_DIR.length + 1)));
    if (!okPath || seen.has(f.path)) return { ok: false, message: `unexpected bundle path "${f.path.slice(0, 80)}"` };
    seen.add(f.path);
    bytes += f.data.length;
  }
  if (!seen.has(SESSION_FILE) || !seen.has(MESSAGES_FILE)) return { ok: false, message: 'the bundle lacks session.json or messages.jsonl' };
  if (bytes > BUNDLE_MAX_BYTES) return { ok: false, message: `the bundle is larger than ${BUNDLE_MAX_BYTES} bytes` };
  return { ok: true, bundle: b as SessionBundle };
}

/**
 * Lands a received session in this device's store: built in a staging directory with every file
 * fsynced, then renamed into place (a session exists completely or not at all). A session that is
 * already here is left alone: the receiver verifies what is on disk against the manifest.
 * `relayedFrom` marks the session with the sending device (shown in the UI).
 */
export async function landSessionBundle(
  store: SessionStore,
  bundle: SessionBundle,
  relayedFrom: { deviceId: string; name: string } | null,
  /** Other stamps merged into session.json (`sshFrom` for a session that came through `baton ssh`, issue 22). */
  stamp: Record<string, unknown> = {},
): Promise<'landed' | 'present'> {
  // Encrypted with this store's key when the store is encrypted at rest.
  const fs = storeFsFor(store.root);
  const target = liveDir(store.root, bundle.sessionId);
  if (fs.existsSync(target) || fs.existsSync(join(store.root, 'archived', bundle.sessionId))) return 'present';
  const staging = join(store.root, SESSIONS_DIR, creatingName(bundle.sessionId, randomBytes(4).toString('hex')));
  try {
    await fs.mkdir(join(staging, ARTIFACTS_DIR), DIR_MODE);
    for (const file of bundle.files) {
      let data = file.data;
      if (file.path === SESSION_FILE) {
        const doc = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
        const relayed = relayedFrom ? { relayedFrom: { ...relayedFrom, receivedAt: new Date().toISOString() } } : {};
        data = Buffer.from(JSON.stringify({ ...doc, ...relayed, ...stamp }, null, 2));
      }
      if (file.path === MESSAGES_FILE) data = sealedLog(recordCodecFor(fs, staging), data);
      await writeFileAtomic(join(staging, file.path), data, { mode: FILE_MODE, fs });
    }
    await fs.fsyncDir(join(staging, ARTIFACTS_DIR));
    await fs.fsyncDir(staging);
    await fs.rename(staging, target);
    await fs.fsyncDir(join(store.root, SESSIONS_DIR));
  } catch (error) {
    await fs.removeTree(staging).catch(() => undefined);
    if (fs.existsSync(target)) return 'present'; // another delivery of the same handoff got there first
    throw error;
  }
  return 'landed';
}
