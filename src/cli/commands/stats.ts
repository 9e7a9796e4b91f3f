import type { Command } from 'commander';
import { computeHandoffStats, lastActivityOf } from '../../core/handoff/stats.js';
import { formatResumedDurations } from '../../shared/format-duration.js';
import { createOutput } from '../output.js';
import { openCliStore } from '../context.js';
import { formatBytes, retentionStats, type RetentionStats } from '../../core/lifecycle/disk-usage.js';
import { terminalField } from '../terminal-text.js';

export function registerStats(program: Command): void {
  program
    .command('stats')
    .description('handoff success rate and the breakdown of outcomes (from events.jsonl)')
    .option('--json', 'print one versioned JSON object')
    .action(async (flags: { json?: boolean }) => {
      const out = createOutput(!!flags.json);
      const { store } = await openCliStore();
      try {
        const stats = computeHandoffStats(await store.readEvents(), lastActivityOf(await store.list({ includeArchived: true })));
        const retention = await retentionStats(store);
        out.result('stats', { stats, retention }, () => {
          if (stats.total === 0) return ['No handoffs recorded yet.', ...retentionLines(retention)].join('\n');
          const rate = `${((stats.successRate ?? 0) * 100).toFixed(1)}%`;
          const rows = Object.entries(stats.byCategory)
            .filter(([, n]) => n > 0)
            .map(([category, n]) => `  ${category.padEnd(20)} ${n}`);
          return [`${stats.total} handoffs, ${stats.succeeded} succeeded (${rate}); p50 ${stats.totalMs.p50 ?? '–'} ms, p95 ${stats.totalMs.p95 ?? '–'} ms`, ...rows, ...mismatchLine(stats.verifyMismatches), ...formatResumedDurations(stats.afterResumption), ...retentionLines(retention)].join('\n');
        });
      } finally {
        await store.close();
      }
    });
}

/** Offers refused here because the disk disagreed with the manifest (the UI shows them as alerts). */
function mismatchLine(count: number): string[] {
  return count === 0 ? [] : [`${count} offer${count === 1 ? '' : 's'} refused at this host: the files on disk differed from the manifest (events.jsonl verify_mismatch)`];
}

/** Disk use per state and the largest sessions (what `baton purge` or `baton delete` would free). */
function retentionLines(r: RetentionStats): string[] {
  return [
    '',
    `Disk use: live ${r.live.sessions} session${r.live.sessions === 1 ? '' : 's'}, ${formatBytes(r.live.bytes)}; archived ${r.archived.sessions}, ${formatBytes(r.archived.bytes)}`,
    ...(r.largest.length ? ['Largest sessions:', ...r.largest.map((u) => `  ${formatBytes(u.bytes).padStart(9)}  ${terminalField(u.id)}  [${u.state}]  ${terminalField(u.title)}`)] : []),
  ];
}
