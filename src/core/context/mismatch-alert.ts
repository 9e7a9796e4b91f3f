import type { Manifest } from '../../shared/manifest.js';
import type { HandoffAlert } from '../../shared/ui-contract.js';
import type { SessionStore } from '../store/types.js';
import type { FieldMismatch } from '../handoff/verify-offer.js';

/** events.jsonl `kind` of a verification mismatch at the target. */
export const VERIFY_MISMATCH_EVENT = 'verify_mismatch';
/** Alerts the UI lists at most (newest first). */
export const ALERTS_MAX = 20;

/**
 * A manifest that disagrees with the disk: one line in events.jsonl (so `baton stats`, the UI and
 * a later reader see it) and an alert for the windows open now. Returns the alert.
 */
export async function reportMismatch(store: SessionStore, manifest: Manifest, mismatches: readonly FieldMismatch[], now = new Date()): Promise<HandoffAlert> {
  const alert: HandoffAlert = {
    at: now.toISOString(),
    sessionId: manifest.session_id,
    handoffId: manifest.handoff_id,
    fields: mismatches.map((m) => m.field),
    message: `The handoff of "${manifest.title ?? manifest.session_id}" was refused: the files on disk differ from the manifest in ${mismatches.map((m) => m.field).join(', ')}.`,
  };
  // Observability must never change the answer: a log that cannot be written still leaves the refusal and the alert.
  await store.appendEvent({ ...alert, side: 'target', kind: VERIFY_MISMATCH_EVENT, mismatches }).catch(() => undefined);
  return alert;
}

/** The alerts recorded in events.jsonl, newest first. */
export function alertsFrom(events: readonly Record<string, unknown>[]): HandoffAlert[] {
  const alerts: HandoffAlert[] = [];
  for (let i = events.length - 1; i >= 0 && alerts.length < ALERTS_MAX; i--) {
    const e = events[i]!;
    if (e.kind !== VERIFY_MISMATCH_EVENT || typeof e.sessionId !== 'string') continue;
    alerts.push({
      at: String(e.at ?? ''),
      sessionId: e.sessionId,
      handoffId: String(e.handoffId ?? ''),
      fields: Array.isArray(e.fields) ? e.fields.map(String) : [],
      message: String(e.message ?? ''),
    });
  }
  return alerts;
}
