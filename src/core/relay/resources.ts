/**
 * Everything Baton keeps on a NATS JetStream relay, by name. Subjects and keys carry device ids,
 * session ids and handoff ids; every payload that says anything about a session is sealed.
 */
export const HANDOFF_STREAM = 'BATON_HANDOFFS';
export const HANDOFF_SUBJECT_PREFIX = 'baton.handoff';
export const EVENTS_STREAM = 'BATON_EVENTS';
/** Other systems subscribe here: `baton.events.archived.<deviceId>` (README "Across machines"). */
export const EVENTS_SUBJECT_PREFIX = 'baton.events';
export const RECEIPTS_BUCKET = 'baton_receipts';
export const HEADS_BUCKET = 'baton_heads';
export const PAIRING_BUCKET = 'baton_pairing';
export const PRESENCE_BUCKET = 'baton_presence';
export const TASKS_BUCKET = 'baton_tasks';
export const BLOBS_STORE = 'baton_blobs';

/** Nats-Msg-Id deduplication: a re-sent handoff within this window is not stored twice (receipts catch later ones). */
export const DUPLICATE_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A pairing code is valid 10 minutes; the bucket's max_age expires what was never used. */
export const PAIRING_TTL_MS = 10 * 60 * 1000;
/**
 * The presence bucket's max_age: an entry not renewed within this is expired by the server, so a device
 * that stopped heartbeating drops out of presence (per-key TTL needs nats-server 2.11; Debian has 2.9).
 * Tests lower it through `presenceMaxAgeMs` (ensureRelayResources, startRelayHost).
 */
export const PRESENCE_MAX_AGE_MS = 60 * 1000;

export const ALL_BUCKETS = [RECEIPTS_BUCKET, HEADS_BUCKET, PAIRING_BUCKET, PRESENCE_BUCKET, TASKS_BUCKET] as const;
export const ALL_STREAMS = [HANDOFF_STREAM, EVENTS_STREAM] as const;

/** `baton.handoff.<to>.<from>`: a device consumes `<me>.*`; purge finds both directions by subject. */
export function handoffSubject(to: string, from: string): string {
  return `${HANDOFF_SUBJECT_PREFIX}.${to}.${from}`;
}
export function inboxFilter(deviceId: string): string {
  return `${HANDOFF_SUBJECT_PREFIX}.${deviceId}.*`;
}
/** Receipt keys and blob names name both devices, so either one's purge finds them. */
export function receiptKey(from: string, to: string, handoffId: string): string {
  return `${from}.${to}.${handoffId}`;
}
export function blobName(from: string, to: string, handoffId: string): string {
  return `${from}.${to}.${handoffId}`;
}
export function durableName(deviceId: string): string {
  return `handoffs_${deviceId}`;
}
export function archivedSubject(deviceId: string): string {
  return `${EVENTS_SUBJECT_PREFIX}.archived.${deviceId}`;
}
export function archiveBlobName(deviceId: string, sessionId: string): string {
  return `archive.${deviceId}.${sessionId}`;
}
