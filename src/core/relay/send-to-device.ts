import type { DeviceIdentity } from '../crypto/identity.js';
import { deviceLabel, type PairedDevice } from '../crypto/peers.js';
import type { SessionStore } from '../store/types.js';
import type { Relay } from './connection.js';
import { openFrom, sealFor, SEAL_KIND, sha256, type HandoffPayload } from './handoff-envelope.js';
import { blobName, handoffSubject, RECEIPTS_BUCKET, receiptKey } from './resources.js';
import { encodeBundle, readSessionBundle } from './session-bundle.js';
import { readHead } from './heads.js';
import { sealBinary } from '../crypto/seal.js';

/** Bundles above this go to the Object Store (NATS messages are limited to 1 MB by default). */
export const INLINE_BUNDLE_MAX_BYTES = 256 * 1024;
/** How long `baton handoff --to` waits for the target's receipt before reporting `queued`. */
export const DEFAULT_RECEIPT_WAIT_MS = 10_000;
const RECEIPT_POLL_MS = 25;

export type RelayHandoffStatus = 'accepted' | 'duplicate' | 'queued' | 'rejected' | 'relay_failure' | 'conflict';

export interface RelayHandoffResult {
  status: RelayHandoffStatus;
  handoffId: string;
  sessionId: string;
  target: { deviceId: string; name: string };
  answer?: Record<string, unknown>;
  message: string;
  durationsMs: Record<string, number>;
}

export interface SendToDeviceOptions {
  relay: Relay;
  identity: DeviceIdentity;
  peer: PairedDevice;
  store: SessionStore;
  sessionId: string;
  manifest: Record<string, unknown> & { handoff_id: string };
  receiptWaitMs?: number;
  /** Every paired device, so a CONFLICT names the holder rather than showing its id alone. */
  peers?: readonly PairedDevice[];
}

/**
 * Seals the session for one paired device, uploads it, publishes the handoff with
 * Nats-Msg-Id = handoff id (the stream drops a repeat), then waits for the target's sealed receipt.
 * The session was landed locally before this is called; a failure here loses nothing.
 */
export async function sendToDevice(options: SendToDeviceOptions): Promise<RelayHandoffResult> {
  const { relay, identity, peer, store, sessionId, manifest } = options;
  const handoffId = manifest.handoff_id;
  const started = Date.now();
  const durationsMs: Record<string, number> = {};
  const base = { handoffId, sessionId, target: { deviceId: peer.deviceId, name: peer.name }, durationsMs };
  const receipts = await relay.kv(RECEIPTS_BUCKET);
  const key = receiptKey(identity.deviceId, peer.deviceId, handoffId);

  const readReceipt = async (): Promise<RelayHandoffResult | undefined> => {
    const entry = await receipts.get(key);
    if (!entry || entry.operation !== 'PUT') return undefined;
    const opened = openFrom(identity, [peer], entry.value, SEAL_KIND.receipt, handoffId);
    if (!opened.ok) return { ...base, status: 'relay_failure', message: `The receipt on the relay could not be trusted (${opened.code}): ${opened.message}` };
    const answer = opened.value as Record<string, unknown>;
    const status = answer.status === 'accepted' || answer.status === 'duplicate' ? (answer.status as 'accepted' | 'duplicate') : 'rejected';
    const message =
      status === 'rejected'
        ? `${peer.name} refused the session: ${String(answer.message ?? answer.status)}`
        : `${peer.name} has the session${status === 'duplicate' ? ' already (this handoff was delivered before)' : ''}.`;
    return { ...base, status, answer, message };
  };

  // Already delivered (a retry after a lost receipt wait): report it, send nothing.
  const earlier = await readReceipt();
  if (earlier) return { ...earlier, status: earlier.status === 'accepted' ? 'duplicate' : earlier.status, message: earlier.status === 'accepted' ? `${peer.name} has the session already (this handoff was delivered before).` : earlier.message };

  // The baton across devices: a device that no longer holds a relayed session cannot send it on.
  // (The target itself holding it is a retry whose receipt was lost: the receipt answers that.)
  const head = await readHead(relay, sessionId);
  if (head && head.head.holder !== identity.deviceId && head.head.holder !== peer.deviceId) {
    const known = [identity, peer, ...(options.peers ?? [])];
    const holder = { deviceId: head.head.holder, name: known.find((d) => d.deviceId === head.head.holder)?.name ?? null };
    const label = deviceLabel(holder.deviceId, known);
    return { ...base, status: 'conflict', answer: { holder }, message: `CONFLICT: ${label} holds session ${sessionId} (epoch ${head.head.epoch}); this device's copy is stale. Take it back first (baton relay claim ${sessionId}).` };
  }

  const bundle = await readSessionBundle(store, sessionId);
  const payload: HandoffPayload = { handoffId, sessionId, manifest, senderName: identity.name };
  const encoded = encodeBundle(bundle);
  if (encoded.length > INLINE_BUNDLE_MAX_BYTES) {
    const sealedBundle = sealBinary({ sender: identity, recipient: peer, kind: SEAL_KIND.blob, context: handoffId, plaintext: encoded });
    const name = blobName(identity.deviceId, peer.deviceId, handoffId);
    const uploadStarted = Date.now();
    const blobs = await relay.blobs();
    await blobs.putBlob({ name }, sealedBundle);
    payload.blob = { name, sha256: sha256(sealedBundle), bytes: sealedBundle.length };
    durationsMs.upload = Date.now() - uploadStarted;
  } else {
    payload.bundle = encoded.toString('base64');
  }
  const ack = await relay.js.publish(handoffSubject(peer.deviceId, identity.deviceId), sealFor(identity, peer, SEAL_KIND.handoff, handoffId, payload), { msgID: handoffId });
  durationsMs.publish = Date.now() - started;

  const deadline = Date.now() + (options.receiptWaitMs ?? DEFAULT_RECEIPT_WAIT_MS);
  for (;;) {
    const receipt = await readReceipt();
    if (receipt) {
      durationsMs.total = Date.now() - started;
      return receipt;
    }
    if (Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, RECEIPT_POLL_MS));
  }
  durationsMs.total = Date.now() - started;
  return {
    ...base,
    status: 'queued',
    message: `${peer.name} did not answer yet${ack.duplicate ? ' (the relay already held this handoff)' : ''}; the handoff waits on the relay and is delivered when ${peer.name} is back online.`,
  };
}
