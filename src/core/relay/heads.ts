import type { DeviceIdentity } from '../crypto/identity.js';
import type { Relay } from './connection.js';
import { HEADS_BUCKET } from './resources.js';

/**
 * The head of a relayed session on the relay (issue 13): who holds the baton across devices, at
 * which epoch. Every change is a compare-and-set on the KV revision, so of two devices that claim
 * from the same head exactly one wins. Device ids only: names stay on the devices.
 */
export interface SessionHead {
  sessionId: string;
  holder: string;
  epoch: number;
  at: string;
}

export type ClaimResult = { ok: true; head: SessionHead; revision: number } | { ok: false; code: 'CONFLICT'; head: SessionHead; revision: number; message: string };

const HEAD_CAS_RETRIES = 10;

export async function readHead(relay: Relay, sessionId: string): Promise<{ head: SessionHead; revision: number } | undefined> {
  const kv = await relay.kv(HEADS_BUCKET);
  const entry = await kv.get(sessionId);
  if (!entry || entry.operation !== 'PUT') return undefined;
  return { head: entry.json<SessionHead>(), revision: entry.revision };
}

/** Writes `next` if the head is still at `revision` (0 = absent); false when another device got there first. */
async function compareAndSet(relay: Relay, next: SessionHead, revision: number): Promise<number | false> {
  const kv = await relay.kv(HEADS_BUCKET);
  try {
    return revision === 0 ? await kv.create(next.sessionId, JSON.stringify(next)) : await kv.update(next.sessionId, JSON.stringify(next), revision);
  } catch (error) {
    if (/wrong last sequence|key exists/i.test((error as Error).message)) return false;
    throw error;
  }
}

/**
 * Takes the baton for this device, starting from the head it read (`seen`, or the current one).
 * Exactly one of several concurrent claims from the same head wins; the others get CONFLICT with
 * the holder's device id.
 */
export async function claimHead(relay: Relay, sessionId: string, me: DeviceIdentity, seen?: { head: SessionHead; revision: number } | null): Promise<ClaimResult> {
  const current = seen === undefined ? await readHead(relay, sessionId) : (seen ?? undefined);
  const next: SessionHead = { sessionId, holder: me.deviceId, epoch: (current?.head.epoch ?? 0) + 1, at: new Date().toISOString() };
  const revision = await compareAndSet(relay, next, current?.revision ?? 0);
  if (revision !== false) return { ok: true, head: next, revision };
  const winner = await readHead(relay, sessionId);
  return {
    ok: false,
    code: 'CONFLICT',
    head: winner!.head,
    revision: winner!.revision,
    message: `Another device claimed session ${sessionId} first: ${winner!.head.holder} holds it at epoch ${winner!.head.epoch}.`,
  };
}

/** After an accepted handoff the target holds the baton; retried over concurrent head changes. */
export async function recordHandoffHead(relay: Relay, sessionId: string, me: DeviceIdentity): Promise<SessionHead> {
  for (let attempt = 0; attempt < HEAD_CAS_RETRIES; attempt++) {
    const current = await readHead(relay, sessionId);
    if (current?.head.holder === me.deviceId) return current.head;
    const result = await claimHead(relay, sessionId, me, current ?? null);
    if (result.ok) return result.head;
  }
  throw Object.assign(new Error(`Session ${sessionId}: the head kept changing; the baton was not recorded on the relay.`), { code: 'CONFLICT' });
}
