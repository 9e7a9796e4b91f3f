import { HandoffCategory } from './outcome.js';
import { computeResumedDurations, type ResumedDurations } from './session-durations.js';
import { VERIFY_MISMATCH_EVENT } from '../context/mismatch-alert.js';

export interface HandoffStats {
  total: number;
  succeeded: number;
  /** succeeded / total, 0–1; null when there were no handoffs. */
  successRate: number | null;
  byCategory: Record<HandoffCategory, number>;
  /** Whole-handoff duration, as the source measured it. */
  totalMs: { p50: number | null; p95: number | null };
  /** How long sessions lived on after an accepted handoff (session-durations.ts). */
  afterResumption: ResumedDurations;
  /** Offers this host refused because the disk disagreed with the manifest (events.jsonl `verify_mismatch`). */
  verifyMismatches: number;
}

const SUCCESS: readonly string[] = [HandoffCategory.accepted, HandoffCategory.duplicate];

/**
 * Summarises the source-side outcomes in events.jsonl (one line each from `baton handoff`) and the
 * durations after resumption; `lastActivity` is each session's updatedAt from the index.
 */
export function computeHandoffStats(events: readonly Record<string, unknown>[], lastActivity: ReadonlyMap<string, string> = new Map()): HandoffStats {
  const byCategory = Object.fromEntries(Object.values(HandoffCategory).map((c) => [c, 0])) as Record<HandoffCategory, number>;
  const durations: number[] = [];
  let total = 0;
  for (const event of events) {
    if (event.side !== 'source' || typeof event.category !== 'string' || !(event.category in byCategory)) continue;
    total++;
    byCategory[event.category as HandoffCategory]++;
    const ms = (event.durationsMs as Record<string, unknown> | undefined)?.total;
    if (typeof ms === 'number' && Number.isFinite(ms)) durations.push(ms);
  }
  const succeeded = SUCCESS.reduce((sum, c) => sum + byCategory[c as HandoffCategory], 0);
  durations.sort((a, b) => a - b);
  return {
    total,
    succeeded,
    successRate: total === 0 ? null : succeeded / total,
    byCategory,
    totalMs: { p50: percentile(durations, 0.5), p95: percentile(durations, 0.95) },
    afterResumption: computeResumedDurations(events, lastActivity),
    verifyMismatches: events.filter((e) => e.kind === VERIFY_MISMATCH_EVENT).length,
  };
}

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

/** Each session's last activity, for computeHandoffStats, from the index rows. */
export function lastActivityOf(rows: readonly { id: string; updatedAt: string }[]): Map<string, string> {
  return new Map(rows.map((r) => [r.id, r.updatedAt]));
}
