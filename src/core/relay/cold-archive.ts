import { nodeDurableFs } from '../fs/index.js';
import type { DeviceIdentity } from '../crypto/identity.js';
import { ARCHIVED_DIR, SESSIONS_DIR, archivedDir, liveDir } from '../store/layout.js';
import { join } from 'node:path';
import type { SessionStore } from '../store/types.js';
import type { Relay } from './connection.js';
import { sha256 } from './handoff-envelope.js';
import { openBinary, sealBinary } from '../crypto/seal.js';
import { archiveBlobName, archivedSubject } from './resources.js';
import { decodeBundle, encodeBundle, landSessionBundle, readSessionBundle } from './session-bundle.js';

/** The sealed kind of an archive: sealed by this device for itself, so only its own key opens it. */
export const ARCHIVE_KIND = 'archive';

/** The event other systems read on `baton.events.archived.<deviceId>` (README "Across machines"). Ids and sizes only. */
export interface ArchivedEvent {
  v: 1;
  event: 'archived';
  deviceId: string;
  sessionId: string;
  object: string;
  bytes: number;
  sha256: string;
  at: string;
}

/** Moves an archived session back under sessions/ and clears its archived flag. */
export async function unarchiveLocally(store: SessionStore, sessionId: string): Promise<'unarchived' | 'live'> {
  const fs = nodeDurableFs;
  const from = archivedDir(store.root, sessionId);
  const to = liveDir(store.root, sessionId);
  const wasArchived = fs.existsSync(from);
  if (fs.existsSync(from) && !fs.existsSync(to)) {
    await fs.rename(from, to);
    await fs.fsyncDir(join(store.root, ARCHIVED_DIR));
    await fs.fsyncDir(join(store.root, SESSIONS_DIR));
  } else if (!fs.existsSync(to)) {
    throw Object.assign(new Error(`No session ${sessionId} in ${store.root}.`), { code: 'NOT_FOUND' });
  }
  await store.mutate(sessionId, (doc) => (doc.archived ? { ...doc, archived: false } : undefined));
  return wasArchived ? 'unarchived' : 'live';
}

/**
 * Cold archive (opt-in): the session's files sealed for this device, uploaded to the Object Store,
 * an `archived` event published, then the local archive as without a relay.
 */
export async function archiveToRelay(relay: Relay, identity: DeviceIdentity, store: SessionStore, sessionId: string): Promise<ArchivedEvent> {
  const bundle = await readSessionBundle(store, sessionId);
  const sealed = sealBinary({ sender: identity, recipient: identity, kind: ARCHIVE_KIND, context: sessionId, plaintext: encodeBundle(bundle) });
  const name = archiveBlobName(identity.deviceId, sessionId);
  const blobs = await relay.blobs();
  await blobs.putBlob({ name }, sealed);
  const event: ArchivedEvent = { v: 1, event: 'archived', deviceId: identity.deviceId, sessionId, object: name, bytes: sealed.length, sha256: sha256(sealed), at: new Date().toISOString() };
  await relay.js.publish(archivedSubject(identity.deviceId), JSON.stringify(event));
  await store.archive(sessionId);
  return event;
}

/** Brings a cold-archived session back from the relay: verified, decrypted, landed if missing, and unarchived. */
export async function unarchiveFromRelay(relay: Relay, identity: DeviceIdentity, store: SessionStore, sessionId: string): Promise<{ landed: boolean; bytes: number }> {
  const blobs = await relay.blobs();
  const bytes = await blobs.getBlob(archiveBlobName(identity.deviceId, sessionId));
  if (!bytes) throw Object.assign(new Error(`No cold archive of session ${sessionId} from this device on the relay.`), { code: 'NOT_FOUND' });
  const opened = openBinary(bytes, { recipient: identity, kind: ARCHIVE_KIND, context: sessionId, signingKeyOf: (id) => (id === identity.deviceId ? identity.signingKey : undefined) });
  if (!opened.ok) throw Object.assign(new Error(`The archive on the relay was refused (${opened.code}): ${opened.message}`), { code: opened.code });
  const bundle = decodeBundle(opened.plaintext);
  if (!bundle.ok) throw Object.assign(new Error(`The archive on the relay is not a session: ${bundle.message}`), { code: 'BAD_BUNDLE' });
  const present = nodeDurableFs.existsSync(liveDir(store.root, sessionId)) || nodeDurableFs.existsSync(archivedDir(store.root, sessionId));
  if (!present) await landSessionBundle(store, bundle.bundle, { deviceId: identity.deviceId, name: identity.name });
  await unarchiveLocally(store, sessionId);
  return { landed: !present, bytes: bytes.length };
}
