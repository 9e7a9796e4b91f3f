/** The durations-after-resumption figures (computed in src/core/handoff/session-durations.ts). */
export interface ResumedDurationsView {
  /** Accepted handoffs measured. */
  count: number;
  p50: number | null;
  p95: number | null;
  max: number | null;
  /** What ended each span: the next handoff, a resume, or (still open) the last activity. */
  byEnd: Record<string, number>;
  buckets: { label: string; count: number }[];
}

/** "42 s", "7.5 min", "3.2 h", "–". */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '–';
  if (ms < 60_000) return `${Math.round(ms / 1_000)} s`;
  if (ms < 3_600_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

/** The lines `baton stats` prints for the durations after resumption. */
export function formatResumedDurations(d: ResumedDurationsView): string[] {
  if (d.count === 0) return ['Session durations after resumption: no accepted handoff yet.'];
  return [
    `Session durations after resumption (${d.count} accepted ${d.count === 1 ? 'handoff' : 'handoffs'}): p50 ${formatDuration(d.p50)}, p95 ${formatDuration(d.p95)}, max ${formatDuration(d.max)}`,
    `  ended by: next handoff ${d.byEnd.handoff ?? 0}, resume ${d.byEnd.resume ?? 0}, last activity (still open) ${d.byEnd['last-activity'] ?? 0}`,
    ...d.buckets.map((b) => `  ${b.label.padEnd(20)} ${b.count}`),
  ];
}
