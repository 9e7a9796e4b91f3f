import { loadOrCreateIdentity, type DeviceIdentity } from '../crypto/identity.js';
import type { PairedDevice } from '../crypto/peers.js';
import { offerSession } from '../handoff/send.js';
import { readSessionBundle } from '../relay/session-bundle.js';
import type { SessionStore } from '../store/types.js';
import { resolveEndpoint } from '../transport/endpoint.js';
import type { Manifest } from '../../shared/manifest.js';
import { checksumList, CHECKSUMS_ENTRY, signChecksums, SIGNATURE_ENTRY } from './bundle-checksums.js';
import { encryptWithPassphrase, sealForDevice } from './bundle-crypt.js';
import { BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, INFO_ENTRY, MANIFEST_ENTRY, SESSION_PREFIX, type BundleInfo } from './bundle-layout.js';
import { writeTarGz, type TarEntry } from './bundle-tar.js';

export type ExportEncryptionChoice = { kind: 'none' } | { kind: 'passphrase'; passphrase: string } | { kind: 'device'; peer: PairedDevice };

export interface ExportResult {
  bytes: Buffer;
  sessionId: string;
  handoffId: string;
  messageCount: number;
  entries: number;
  encryption: ExportEncryptionChoice['kind'];
}

/**
 * The manifest a bundle carries is the one a handoff would offer (built, or reused when the
 * conversation has not changed): the importing side lands the files and offers it to its receiver.
 */
export async function manifestForExport(store: SessionStore, dataDir: string, sessionId: string): Promise<Manifest> {
  const outcome = await offerSession(sessionId, { store, endpoint: resolveEndpoint(dataDir), token: Buffer.alloc(0), timeoutMs: 0, launch: false, dryRun: true });
  return (outcome.answer as { manifest: Manifest }).manifest;
}

/** The clear bundle: bundle.json, manifest.json, session/…, the checksum list and its signature. */
export async function buildBundle(store: SessionStore, identity: DeviceIdentity, sessionId: string, manifest: Manifest): Promise<{ bytes: Buffer; entries: number; messageCount: number }> {
  const files = await readSessionBundle(store, sessionId);
  const session = await store.getSession(sessionId);
  const info: BundleInfo = { format: BUNDLE_FORMAT, v: BUNDLE_FORMAT_VERSION, sessionId, handoffId: manifest.handoff_id, exportedAt: new Date().toISOString(), messageCount: session.messageCount };
  const entries: TarEntry[] = [
    { name: INFO_ENTRY, data: Buffer.from(`${JSON.stringify(info, null, 2)}\n`) },
    { name: MANIFEST_ENTRY, data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) },
    ...files.files.map((f) => ({ name: `${SESSION_PREFIX}${f.path}`, data: f.data })),
  ];
  const list = checksumList(entries);
  entries.push({ name: CHECKSUMS_ENTRY, data: list }, { name: SIGNATURE_ENTRY, data: signChecksums(list, identity) });
  return { bytes: await writeTarGz(entries), entries: entries.length, messageCount: session.messageCount };
}

/** `baton export`: the bundle's bytes, encrypted as chosen. Writing them (atomically) is the caller's step. */
export async function exportSession(store: SessionStore, dataDir: string, sessionId: string, encryption: ExportEncryptionChoice): Promise<ExportResult> {
  const identity = await loadOrCreateIdentity(dataDir);
  const manifest = await manifestForExport(store, dataDir, sessionId);
  const clear = await buildBundle(store, identity, sessionId, manifest);
  const bytes =
    encryption.kind === 'passphrase' ? await encryptWithPassphrase(clear.bytes, encryption.passphrase) : encryption.kind === 'device' ? sealForDevice(clear.bytes, identity, encryption.peer) : clear.bytes;
  return { bytes, sessionId, handoffId: manifest.handoff_id, messageCount: clear.messageCount, entries: clear.entries, encryption: encryption.kind };
}
