import type { IndexEntry } from './candidate-index.js';
import type { ScanStats } from './types.js';

/**
 * A scan's totals over index entries, without reading any file: what a quick scan reports, and
 * what a host's in-place update reports (`parsed`: the files it re-read; the rest count as cached).
 */
export function statsOf(entries: Iterable<IndexEntry>, skippedReasons: Record<string, number>, files: number, parsed: number): ScanStats {
  const started = performance.now();
  const stats: ScanStats = { files, parsed, cached: 0, skipped: 0, skippedReasons: { ...skippedReasons }, tornLines: 0, unknownTypes: 0, danglingParents: 0, compactions: 0, bytesRead: 0, ms: 0 };
  for (const e of entries) {
    const [torn, unknown, dangling, compactions] = e.totals;
    stats.tornLines += torn;
    stats.unknownTypes += unknown;
    stats.danglingParents += dangling;
    stats.compactions += compactions;
    if (e.skip !== null) {
      stats.skipped += 1;
      stats.skippedReasons[e.skip] = (stats.skippedReasons[e.skip] ?? 0) + 1;
    }
  }
  stats.cached = Math.max(0, files - parsed);
  stats.ms = Math.round(performance.now() - started);
  return stats;
}
