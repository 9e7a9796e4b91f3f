import { loadOrCreateIdentity } from '../crypto/identity.js';
import { findPeer, readPeers } from '../crypto/peers.js';
import { HandoffCategory, type HandoffOutcome } from '../handoff/outcome.js';
import { offerSession, type LandedSession, type OfferOptions } from '../handoff/send.js';
import type { SessionStore } from '../store/types.js';
import { readRelayConfig } from './config.js';
import { connectRelay } from './connection.js';
import { sendToDevice, type RelayHandoffStatus } from './send-to-device.js';

export interface HandoffToDeviceOptions {
  dataDir: string;
  store: SessionStore;
  sessionId: string;
  landed?: LandedSession;
  /** Device name or id, as `baton device list` shows it. */
  to: string;
  /** The local offer's options; only the manifest step runs (dry run). */
  offer: Omit<OfferOptions, 'dryRun' | 'store' | 'launch'>;
  receiptWaitMs: number;
}

/** Upload and publish get this much on top of the receipt wait before the handoff is reported failed. */
export const SEND_GRACE_MS = 30_000;

const CATEGORY: Record<RelayHandoffStatus, HandoffCategory> = {
  accepted: HandoffCategory.accepted,
  duplicate: HandoffCategory.duplicate,
  queued: HandoffCategory.queued,
  rejected: HandoffCategory.rejected,
  relay_failure: HandoffCategory.relayFailure,
  conflict: HandoffCategory.conflict,
};

/**
 * `baton handoff --to <device>`: the session is already landed locally; build (or reuse) its
 * manifest exactly as a local handoff does, then send it sealed through the relay and wait for
 * the target's receipt. Every failure keeps the session saved and says how to retry.
 */
export async function handoffToDevice(options: HandoffToDeviceOptions): Promise<HandoffOutcome> {
  const { store, sessionId } = options;
  const sessionDir = store.sessionDir(sessionId);
  const retry = `retry with: baton handoff --session ${sessionId} --to ${options.to}`;
  const peers = await readPeers(options.dataDir);
  const found = findPeer(peers, options.to);
  if (!found.ok) return { category: HandoffCategory.notPaired, sessionId, handoffId: null, sessionDir, message: found.message, durationsMs: {} };
  const config = await readRelayConfig(options.dataDir);
  if (!config) return { category: HandoffCategory.relayFailure, sessionId, handoffId: null, sessionDir, message: 'No relay is configured (baton relay connect nats://HOST:PORT).', durationsMs: {} };

  const local = await offerSession(sessionId, { ...options.offer, store, launch: false, dryRun: true }, options.landed);
  const manifest = (local.answer as { manifest: Record<string, unknown> & { handoff_id: string } }).manifest;
  const base = { sessionId, handoffId: manifest.handoff_id, sessionDir };
  const identity = await loadOrCreateIdentity(options.dataDir);
  let relay;
  try {
    relay = await connectRelay(config);
  } catch (error) {
    return { ...base, category: HandoffCategory.relayFailure, message: `${(error as Error).message}; the session is saved, ${retry}`, durationsMs: local.durationsMs };
  }
  try {
    // A relay that stops answering mid-way must end in a reported failure, never in a hang.
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no progress within ${Math.round((options.receiptWaitMs + SEND_GRACE_MS) / 1000)} s`)), options.receiptWaitMs + SEND_GRACE_MS);
    });
    const result = await Promise.race([sendToDevice({ relay, identity, peer: found.peer, peers, store, sessionId, manifest, receiptWaitMs: options.receiptWaitMs }), deadline]).finally(() => clearTimeout(timer));
    const message = result.status === 'relay_failure' ? `${result.message}; ${retry}` : result.message;
    return { ...base, category: CATEGORY[result.status], answer: { ...(result.answer ?? {}), target: result.target }, message, durationsMs: { ...local.durationsMs, ...result.durationsMs } };
  } catch (error) {
    return { ...base, category: HandoffCategory.relayFailure, message: `The relay failed during the handoff (${(error as Error).message}); the session is saved, ${retry}`, durationsMs: local.durationsMs };
  } finally {
    await relay.close().catch(() => undefined);
  }
}
