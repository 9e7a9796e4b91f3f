import { AckPolicy, DeliverPolicy, type JsMsg } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import type { DeviceIdentity } from '../crypto/identity.js';
import { readPeers } from '../crypto/peers.js';
import type { SessionStore } from '../store/types.js';
import type { Answer, RequestHandler } from '../transport/types.js';
import type { Relay } from './connection.js';
import { openFrom, sealFor, SEAL_KIND, sha256, type HandoffPayload } from './handoff-envelope.js';
import { durableName, HANDOFF_STREAM, inboxFilter, RECEIPTS_BUCKET, receiptKey } from './resources.js';
import { decodeBundle, landSessionBundle } from './session-bundle.js';
import { openBinary } from '../crypto/seal.js';
import { recordHandoffHead } from './heads.js';
import { backoffDelay } from '../../shared/backoff.js';

/** Redelivered after this if the host dies mid-landing (the receipt and the store's receipt make it idempotent). */
export const INBOX_ACK_WAIT_MS = 30_000;
const INBOX_RESTART_MS = 300;

/**
 * A handoff that fails without a reason to distrust it (the disk, the relay, the receiver threw) is
 * redelivered with exponential backoff; after this many deliveries it is terminated and counted as
 * dropped (RETRIES_EXHAUSTED), so one that fails the same way every time does not loop forever.
 */
export const INBOX_MAX_DELIVERIES = 8;
export const INBOX_RETRY_BASE_MS = 1_000;
export const INBOX_RETRY_MAX_MS = 60_000;
/** The drop reason a message gets when its deliveries ran out. */
export const RETRIES_EXHAUSTED = 'RETRIES_EXHAUSTED';

export interface InboxRetryPolicy {
  maxDeliveries: number;
  baseMs: number;
  maxMs: number;
}
export const DEFAULT_INBOX_RETRY: InboxRetryPolicy = { maxDeliveries: INBOX_MAX_DELIVERIES, baseMs: INBOX_RETRY_BASE_MS, maxMs: INBOX_RETRY_MAX_MS };

export interface InboxStats {
  accepted: number;
  duplicate: number;
  rejected: number;
  /** Messages refused before anything was landed, by reason (UNSIGNED, UNKNOWN_SENDER, BAD_SIGNATURE, WRONG_KEY…). */
  dropped: Record<string, number>;
}

export interface DeviceInboxOptions {
  relay: Relay;
  identity: DeviceIdentity;
  dataDir: string;
  store: SessionStore;
  /** The host's receiver (createReceiver): the same path a local handoff takes, with its checks. */
  receive: RequestHandler;
  onDelivered?: (answer: Answer, from: { deviceId: string; name: string }) => void;
  /** Redelivery limits (default DEFAULT_INBOX_RETRY; tests lower them). */
  retry?: InboxRetryPolicy;
}

export interface DeviceInbox {
  readonly stats: InboxStats;
  stop(): Promise<void>;
}

class Drop extends Error {
  constructor(readonly reason: string, message: string) {
    super(message);
  }
}

/**
 * The target side of a handoff across devices: a durable consumer on this device's subject. Each
 * message is verified (signature of a paired device), decrypted, landed in the store and offered to
 * the receiver, which checks counts and hashes against the disk. Only then is the sealed receipt
 * written and the message acked. What cannot be trusted is terminated (never redelivered) and counted.
 */
export async function startDeviceInbox(options: DeviceInboxOptions): Promise<DeviceInbox> {
  const { relay, identity, store } = options;
  const retry = options.retry ?? DEFAULT_INBOX_RETRY;
  const durable = durableName(identity.deviceId);
  const ensureConsumer = () =>
    relay.jsm.consumers.add(HANDOFF_STREAM, {
      durable_name: durable,
      filter_subject: inboxFilter(identity.deviceId),
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(INBOX_ACK_WAIT_MS),
    });
  await ensureConsumer();
  const stats: InboxStats = { accepted: 0, duplicate: 0, rejected: 0, dropped: {} };

  const handle = async (m: JsMsg) => {
    try {
      const answer = await deliver(m);
      if (answer.status === 'accepted') stats.accepted++;
      else if (answer.status === 'duplicate') stats.duplicate++;
      else stats.rejected++;
      m.ack();
    } catch (error) {
      const deliveries = m.info.deliveryCount;
      const drop =
        error instanceof Drop
          ? error
          : deliveries >= retry.maxDeliveries
            ? new Drop(RETRIES_EXHAUSTED, `Handoff ${m.headers?.get('Nats-Msg-Id') || m.subject} failed ${deliveries} times; last: ${(error as Error).message}`)
            : undefined;
      if (drop) {
        // Terminated: the server never redelivers it; the store's event log keeps the reason (relay status counts it).
        stats.dropped[drop.reason] = (stats.dropped[drop.reason] ?? 0) + 1;
        m.term(drop.message);
        await store.appendEvent({ at: new Date().toISOString(), side: 'relay-target', category: 'dropped', reason: drop.reason, message: drop.message }).catch(() => undefined);
        return;
      }
      // The relay or the disk failed: try again later with backoff (landing and the receiver are idempotent).
      m.nak(backoffDelay(deliveries, { baseMs: retry.baseMs, maxMs: retry.maxMs, random: Math.random }));
    }
  };

  async function deliver(m: JsMsg): Promise<Answer> {
    const handoffId = m.headers?.get('Nats-Msg-Id') ?? '';
    const fromToken = m.subject.split('.').at(-1) ?? '';
    if (!handoffId) throw new Drop('NO_MSG_ID', `A message on ${m.subject} has no Nats-Msg-Id.`);
    const peers = await readPeers(options.dataDir);
    const opened = openFrom(identity, peers, m.data, SEAL_KIND.handoff, handoffId);
    if (!opened.ok) throw new Drop(opened.code, opened.message);
    if (opened.from !== fromToken) throw new Drop('SPOOFED_SUBJECT', `A handoff signed by ${opened.from} arrived on ${m.subject}.`);
    const sender = peers.find((p) => p.deviceId === opened.from)!;
    const payload = opened.value as HandoffPayload;
    if (payload.handoffId !== handoffId || payload.manifest?.handoff_id !== handoffId || payload.manifest?.session_id !== payload.sessionId) {
      throw new Drop('MISMATCH', `Handoff ${handoffId}: the ids inside do not match the message.`);
    }
    let bundleBytes: Uint8Array | undefined = typeof payload.bundle === 'string' ? Buffer.from(payload.bundle, 'base64') : undefined;
    if (payload.blob) {
      const blobs = await relay.blobs();
      const bytes = await blobs.getBlob(payload.blob.name);
      if (!bytes) throw new Drop('BLOB_MISSING', `Handoff ${handoffId}: the blob ${payload.blob.name} is not on the relay.`);
      if (sha256(bytes) !== payload.blob.sha256) throw new Drop('BLOB_TAMPERED', `Handoff ${handoffId}: the blob's hash differs from the signed one.`);
      const blob = openBinary(bytes, { recipient: identity, kind: SEAL_KIND.blob, context: handoffId, signingKeyOf: (id) => peers.find((p) => p.deviceId === id)?.signingKey });
      if (!blob.ok) throw new Drop(blob.code, blob.message);
      if (blob.from !== sender.deviceId) throw new Drop('MISMATCH', `Handoff ${handoffId}: the blob was sealed by another device.`);
      bundleBytes = blob.plaintext;
    }
    if (!bundleBytes) throw new Drop('BAD_BUNDLE', `Handoff ${handoffId} carries no session.`);
    const bundle = decodeBundle(bundleBytes);
    if (!bundle.ok) throw new Drop('BAD_BUNDLE', `Handoff ${handoffId}: ${bundle.message}`);
    if (bundle.bundle.sessionId !== payload.sessionId) throw new Drop('MISMATCH', `Handoff ${handoffId}: the bundle holds another session.`);

    await landSessionBundle(store, bundle.bundle, { deviceId: sender.deviceId, name: sender.name });
    const answer = await options.receive({ id: `relay-${handoffId}`, method: 'handoff.offer', params: { manifest: payload.manifest } }, { signal: new AbortController().signal });
    // Also on a duplicate: a redelivery after the relay failed between the local claim and the head write.
    if (answer.status === 'accepted' || answer.status === 'duplicate') await recordHandoffHead(relay, payload.sessionId, identity);
    const receipts = await relay.kv(RECEIPTS_BUCKET);
    await receipts.put(receiptKey(sender.deviceId, identity.deviceId, handoffId), sealFor(identity, sender, SEAL_KIND.receipt, handoffId, answer));
    await store
      .appendEvent({ at: new Date().toISOString(), side: 'relay-target', category: answer.status, sessionId: payload.sessionId, handoffId, from: sender.deviceId })
      .catch(() => undefined);
    options.onDelivered?.(answer, { deviceId: sender.deviceId, name: sender.name });
    return answer;
  }

  // One message at a time, in order: a handoff lands completely before the next is looked at. When
  // the server restarts the consume iterator can end (consumer briefly unknown, heartbeats missed):
  // start it again, for as long as the host runs.
  let stopped = false;
  let current: { close(): Promise<void | Error> } | undefined;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (!stopped) {
      try {
        await ensureConsumer();
        const consumer = await relay.js.consumers.get(HANDOFF_STREAM, durable);
        const messages = await consumer.consume({ max_messages: 8 });
        current = messages;
        if (stopped) await messages.close();
        for await (const m of messages) await handle(m);
      } catch {
        // the relay is down or restarting; try again below
      }
      if (!stopped) await new Promise<void>((r) => { wake = r; setTimeout(r, INBOX_RESTART_MS); });
    }
  })();

  return {
    stats,
    stop: async () => {
      stopped = true;
      wake?.();
      await current?.close().catch(() => undefined);
      await loop.catch(() => undefined);
    },
  };
}
