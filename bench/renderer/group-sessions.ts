/**
 * The left pane regroups the whole list on every `session:changed`. How long does grouping take
 * for stores of 100 to 10,000 sessions, against the floor of any ordered list: one sort by date (each date parsed once)?
 * Run: npx tsx bench/renderer/group-sessions.ts
 */
import { performance } from 'node:perf_hooks';
import type { IndexRow } from '../../src/shared/session.js';
import { groupSessions } from '../../src/shared/resume-groups.js';
import { printTable, summarize, sampleSync } from '../stats.js';

const RUNS = 200;
const SIZES = [100, 1_000, 10_000];
/** Sessions spread over this many working directories (a busy developer's week). */
const DIRECTORIES = 40;

function rows(count: number): IndexRow[] {
  const base = Date.parse('2026-11-29T12:00:00Z');
  return Array.from({ length: count }, (_, i) => ({
    id: `s${i.toString(36)}-${(i * 7919) % 10007}`,
    cwd: `/home/dev/src/project-${(i * 31) % DIRECTORIES}`,
    gitRoot: null,
    branch: 'main',
    title: `Session ${i}`,
    updatedAt: new Date(base - ((i * 104729) % 1_000_000) * 1000).toISOString(),
    messageCount: i % 300,
    source: 'claude' as const,
    holder: { who: 'desktop', epoch: 1 },
    parentId: null,
    archived: false,
  }));
}

const time = (fn: () => unknown): number[] => sampleSync(fn, RUNS, 20);

const table: Record<string, string | number>[] = [];
for (const size of SIZES) {
  const input = rows(size);
  // The floor of any list ordered by date: parse each date once, sort by it.
  const baseline = summarize(time(() => input.map((row) => ({ row, at: Date.parse(row.updatedAt) })).sort((a, b) => b.at - a.at)));
  const grouped = summarize(time(() => groupSessions(input)));
  table.push({ sessions: size, case: 'baseline: one sort by date', 'median ms': baseline.p50, 'p95 ms': baseline.p95, ratio: 1 });
  table.push({ sessions: size, case: 'groupSessions', 'median ms': grouped.p50, 'p95 ms': grouped.p95, ratio: grouped.p50 / baseline.p50 });
}
printTable(table);
