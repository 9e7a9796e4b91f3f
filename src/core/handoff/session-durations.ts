import { HandoffCategory } from './outcome.js';
import type { ResumedDurationsView } from '../../shared/format-duration.js';

/** events.jsonl `kind` written by `baton resume` (the terminal takes a session back). */
export const RESUME_EVENT = 'resume';

/** Upper bounds of the histogram of durations after resumption (design article §6). */
export const DURATION_BUCKETS: readonly { label: string; maxMs: number }[] = [
  { label: '< 1 min', maxMs: 60_000 },
  { label: '1–10 min', maxMs: 10 * 60_000 },
  { label: '10–60 min', maxMs: 60 * 60_000 },
  { label: '1–8 h', maxMs: 8 * 3_600_000 },
  { label: '≥ 8 h', maxMs: Number.POSITIVE_INFINITY },
];

export type DurationEnd = 'handoff' | 'resume' | 'last-activity';

/** The figures (src/shared/format-duration.ts), with what ended each span typed. */
export type ResumedDurations = ResumedDurationsView & { byEnd: Record<DurationEnd, number> };

/**
 * How long a session lived on after each accepted handoff: until the same session's next handoff
 * (another handoff id) or `baton resume`, or, when neither came, its last activity (the index's
 * updatedAt). Events without a time or a session are skipped; a last activity before the handoff
 * counts as 0.
 */
export function computeResumedDurations(events: readonly Record<string, unknown>[], lastActivity: ReadonlyMap<string, string>): ResumedDurations {
  const bySession = new Map<string, { at: number; kind: 'accepted' | 'handoff' | 'resume'; handoffId: unknown }[]>();
  for (const event of events) {
    const at = typeof event.at === 'string' ? Date.parse(event.at) : Number.NaN;
    // A dry run offered nothing: it neither starts nor ends a span.
    if (!Number.isFinite(at) || typeof event.sessionId !== 'string' || event.dryRun === true) continue;
    let kind: 'accepted' | 'handoff' | 'resume' | null = null;
    if (event.kind === RESUME_EVENT) kind = 'resume';
    else if (event.side === 'source' && typeof event.category === 'string') kind = event.category === HandoffCategory.accepted ? 'accepted' : 'handoff';
    if (!kind) continue;
    const list = bySession.get(event.sessionId) ?? [];
    list.push({ at, kind, handoffId: event.handoffId });
    bySession.set(event.sessionId, list);
  }
  const durations: number[] = [];
  const byEnd: Record<DurationEnd, number> = { handoff: 0, resume: 0, 'last-activity': 0 };
  for (const [sessionId, list] of bySession) {
    list.sort((a, b) => a.at - b.at);
    list.forEach((start, i) => {
      if (start.kind !== 'accepted') return;
      // A re-offer of the same handoff (duplicate) continues the same span.
      const next = list.slice(i + 1).find((e) => e.kind === 'resume' || e.handoffId !== start.handoffId);
      let end: number;
      if (next) {
        end = next.at;
        byEnd[next.kind === 'resume' ? 'resume' : 'handoff']++;
      } else {
        const last = Date.parse(lastActivity.get(sessionId) ?? '');
        end = Number.isFinite(last) ? Math.max(last, start.at) : start.at;
        byEnd['last-activity']++;
      }
      durations.push(end - start.at);
    });
  }
  durations.sort((a, b) => a - b);
  const pick = (p: number) => (durations.length === 0 ? null : durations[Math.min(durations.length - 1, Math.ceil(p * durations.length) - 1)]!);
  const buckets = DURATION_BUCKETS.map((b) => ({ label: b.label, count: 0 }));
  for (const d of durations) buckets[DURATION_BUCKETS.findIndex((b) => d < b.maxMs)]!.count++;
  return { count: durations.length, p50: pick(0.5), p95: pick(0.95), max: durations.at(-1) ?? null, byEnd, buckets };
}
