import { readIdentity } from '../crypto/identity.js';
import { readPeers } from '../crypto/peers.js';
import { createReceiver } from '../handoff/receiver.js';
import { DESKTOP_CAPABILITIES } from '../host/capabilities.js';
import { landSessionBundle } from '../relay/session-bundle.js';
import type { SessionStore } from '../store/types.js';
import type { Answer, EndpointInfo, RequestHandler } from '../transport/types.js';
import { findTarget } from '../handoff/find-target.js';
import { verifyBundle, type Origin } from './verify-bundle.js';

export interface ImportOptions {
  store: SessionStore;
  dataDir: string;
  passphrase?: string;
  trust: boolean;
  /** The host's receiver when one runs in this process; else a receiver over the same store. */
  receive?: RequestHandler;
  /** A running desktop or browser host's socket: offered there first, so its UI shows the session at once. */
  host?: { endpoint: EndpointInfo; token: Buffer };
}

/** Offers to the running host when one answers (the same receiver a handoff reaches), else to a receiver here. */
function receiverFor(options: ImportOptions): RequestHandler {
  const local = options.receive ?? createReceiver({ store: options.store, capabilities: DESKTOP_CAPABILITIES, holder: 'desktop' });
  const host = options.host;
  if (!host) return local;
  return async (request, connection) => {
    const manifest = (request.params as { manifest: { handoff_id: string; session_id: string } }).manifest;
    const target = await findTarget({ ...host, handoffId: manifest.handoff_id, sessionId: manifest.session_id, timeoutMs: HOST_OFFER_TIMEOUT_MS, launch: false });
    if (!target.found) return local(request, connection);
    try {
      return (await target.client.request('handoff.offer', request.params as Record<string, unknown>, { timeoutMs: HOST_OFFER_TIMEOUT_MS })) as Answer;
    } finally {
      target.client.close();
    }
  };
}
/** How long a running host gets to verify an imported session (100,000 messages take ~1 s). */
export const HOST_OFFER_TIMEOUT_MS = 60_000;

export type ImportResult =
  | { ok: true; status: 'accepted' | 'duplicate'; sessionId: string; handoffId: string; origin: Origin; signer?: { deviceId: string; name: string }; warning?: string; answer: Answer }
  | { ok: false; code: string; entry?: string; message: string };

/**
 * `baton import FILE`: verify everything first (verify-bundle.ts), then land the files as a relayed
 * session lands (staging dir, fsync, rename) and offer the manifest to the receiver, which checks
 * counts and hashes against the disk and takes the baton. Importing the same bundle twice is `duplicate`.
 */
export async function importBundle(bytes: Buffer, options: ImportOptions): Promise<ImportResult> {
  const { store } = options;
  // Only read: a refused import must not even create this device's keys.
  const me = await readIdentity(options.dataDir);
  const verdict = await verifyBundle(bytes, { me, peers: await readPeers(options.dataDir), passphrase: options.passphrase, trust: options.trust });
  if (!verdict.ok) return verdict;
  const { bundle } = verdict;
  const from = bundle.signer ?? { deviceId: 'unsigned', name: 'an unsigned bundle' };
  // Stamped as imported, not relayed: the session view's relay badge would name a relay it never crossed.
  const landed = await landSessionBundle(store, bundle.session, null, { importedFrom: { ...from, origin: bundle.origin, importedAt: new Date().toISOString() } });
  const receive = receiverFor(options);
  const answer = await receive({ id: `import-${bundle.info.handoffId}`, method: 'handoff.offer', params: { manifest: bundle.manifest } }, { signal: new AbortController().signal });
  const status = (answer as { status?: unknown }).status;
  if (answer.ok && (status === 'accepted' || status === 'duplicate')) {
    const warning = bundle.origin === 'unverified' ? `Unverified origin (${bundle.originNote}); imported because of --trust.` : undefined;
    return { ok: true, status, sessionId: bundle.info.sessionId, handoffId: bundle.info.handoffId, origin: bundle.origin, ...(bundle.signer ? { signer: bundle.signer } : {}), ...(warning ? { warning } : {}), answer };
  }
  // The receiver refused what this import just landed: take it away again, so a refusal leaves nothing.
  if (landed === 'landed') await store.delete(bundle.info.sessionId);
  const code = String((answer as { code?: unknown }).code ?? status ?? 'REJECTED');
  return { ok: false, code, message: `The receiver refused the imported session: ${String((answer as { message?: unknown }).message ?? status)}` };
}
