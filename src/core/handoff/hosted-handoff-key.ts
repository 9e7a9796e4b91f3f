/**
 * The hosted handoff's idempotency key and its payload (ARCHITECTURE §4: the same key with another
 * payload is a conflict). The key is the session id the client made (hosted-handoff-request.ts);
 * the payload's digest is sha256 over the messages file's bytes, cwd, title and source label.
 *
 * The host writes the digest beside the store (`<root>/hosted-handoffs/<sessionId>`), fsynced,
 * before it lands the session: a request sent again (to this host after a restart, or to the full
 * CLI through `--land-as`) offers the saved session only when its digest matches. A saved session
 * with no digest was not landed by a hosted handoff (a request naming an existing session): a
 * conflict, never an offer of someone else's session in place of the messages sent.
 *
 * The file is sealed like every other file of an encrypted store (issue 17: the digest is derived
 * from the session's content, so it is not on the allow-list), and it goes with its session when the
 * session is deleted (delete-session.ts) or purged.
 */
import { createHash } from 'node:crypto';
import { mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { nodeDurableFs } from '../fs/durable-fs.js';
import { openFileFor, sealFileFor } from '../store/at-rest/registry.js';
import { HOSTED_HANDOFFS_DIR } from '../store/layout.js';

export interface HostedPayload {
  cwd: string;
  title?: string;
  source: string;
  bytes: Buffer;
}

export function payloadDigest(payload: HostedPayload): string {
  const fields = JSON.stringify([payload.cwd, payload.title ?? null, payload.source, createHash('sha256').update(payload.bytes).digest('hex')]);
  return createHash('sha256').update(fields).digest('hex');
}

function digestPath(storeRoot: string, sessionId: string): string {
  return join(storeRoot, HOSTED_HANDOFFS_DIR, sessionId);
}

/** The digest recorded for `sessionId`, or null when none was. */
export async function recordedDigest(storeRoot: string, sessionId: string): Promise<string | null> {
  try {
    const path = digestPath(storeRoot, sessionId);
    return openFileFor(path, await readFile(path)).toString('utf8').trim();
  } catch {
    // Missing, or sealed under another key or tampered with (EBADMSG): no digest this request can match.
    return null;
  }
}

/** Records the digest (fsynced) before the session lands under `sessionId`. */
export async function recordDigest(storeRoot: string, sessionId: string, digest: string): Promise<void> {
  await mkdir(join(storeRoot, HOSTED_HANDOFFS_DIR), { recursive: true, mode: 0o700 });
  const path = digestPath(storeRoot, sessionId);
  const file = await open(path, 'w', 0o600);
  try {
    await file.writeFile(sealFileFor(path, Buffer.from(`${digest}\n`)));
    await file.sync();
  } finally {
    await file.close();
  }
  // The name too: a retry after a power cut must find the digest of a session that landed.
  await nodeDurableFs.fsyncDir(join(storeRoot, HOSTED_HANDOFFS_DIR));
}

/** The message of a conflict: `sessionId` is saved (or keyed) with another payload than this one. */
export function payloadConflict(sessionId: string): string {
  return `session ${sessionId} was handed off already with other messages, cwd, title or source (the same request id with another payload); nothing was landed or offered`;
}
