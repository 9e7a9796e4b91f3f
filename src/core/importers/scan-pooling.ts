import type { FoundFile } from './discover.js';
import { availableParallelism } from 'node:os';
import { heapGrowthCapped } from '../perf/heap-growth.js';
import { POOL_MIN_FILES, SCAN_SLICE_MS, SCAN_WORKER_FREE_YOUNG_MB, SCAN_WORKER_NICE, SCAN_WORKER_YOUNG_MB, SCAN_WORKERS } from './limits.js';
import { nodeImportReader, type ImportStat } from './reader.js';
import type { ScanOptions } from './scan.js';
import type { StateLookup } from './scan-cache.js';
import { poolSize, scanWorkerEntry, startScanPool, type ScanPool } from './scan-pool.js';
import type { FileState } from './summarize-file.js';
import { resultValue, summarizeForScan, type SummarizeJob } from './summarize-jobs.js';
import { timeSlicer } from './time-slicer.js';

/**
 * How a cold scan (scan.ts) uses its worker pool (scan-pool.ts): which files go to the workers,
 * when a pool is worth starting, and the batches' summaries as they come back.
 */

/** A regular, uncompressed, non-empty file with nothing cached to continue from: read from its start. */
export function isNewFile(file: FoundFile, stat: ImportStat | Error, stateOf: StateLookup): stat is ImportStat {
  if (stat instanceof Error || !stat.isFile || file.compressed || stat.size === 0) return false;
  const cached = stateOf(file.path);
  return !(cached && cached.digest.source === file.source);
}

/**
 * Workers a scan may start: the option, else BATON_SCAN_WORKERS (a whole number), else
 * defaultWorkers for `scan` (SCAN_WORKERS without one).
 */
export function workersWanted(options: Pick<ScanOptions, 'workers' | 'env'>, scan?: { threadShare: boolean }): number {
  if (options.workers !== undefined) return options.workers;
  const raw = (options.env ?? process.env).BATON_SCAN_WORKERS;
  if (raw !== undefined && /^\d{1,2}$/.test(raw)) return Number(raw);
  return scan ? defaultWorkers(scan.threadShare, heapGrowthCapped(), availableParallelism()) : SCAN_WORKERS;
}

/**
 * Workers for a scan on `cores` cores. A scan whose own thread parses too (threadShare: a CLI
 * listing) is one of the parsing threads, so it starts one worker fewer than the cores, at most
 * SCAN_WORKERS: on two cores, one. A third isolate on two cores compiled and optimized the same
 * per-line code again (0.3-0.7 s of a 20k cold listing's ~4.5 s of CPU) and its parse only took
 * turns with the other two (bench/README.md, issue 15, fifteenth sitting). With the process's heap
 * growth capped (`heapCapped`: a scan of SCAN_HEAP_CAP_MIN_FILES or more, a host that read a
 * resident index) the thread's share of the parse's garbage made it mark that heap over and over:
 * one worker made 100,000 sessions slower and larger (eleventh sitting), so such a scan keeps
 * SCAN_WORKERS. A scan behind a page (no threadShare) keeps its thread for the page and SCAN_WORKERS.
 */
export function defaultWorkers(threadShare: boolean, heapCapped: boolean, cores: number): number {
  if (!threadShare || heapCapped) return SCAN_WORKERS;
  return Math.max(1, Math.min(SCAN_WORKERS, cores - 1));
}

/**
 * Each worker's young generation (MB) for a scan: SCAN_WORKER_FREE_YOUNG_MB where defaultWorkers
 * starts one worker fewer than the cores (a CLI listing, threadShare, its heap growing freely):
 * with a 6 MB nursery each task's states were promoted and the worker's GC was ~12 % of its CPU
 * more (seventeenth sitting). A capped heap (100,000 sessions) or a host's scan keeps the small one.
 */
export function workerYoungMb(threadShare: boolean, heapCapped: boolean): number {
  return threadShare && !heapCapped ? SCAN_WORKER_FREE_YOUNG_MB : SCAN_WORKER_YOUNG_MB;
}

/** Each batch's summaries from the pool, by index into `files`; null for a batch read in the scan's thread. */
export interface PooledBatches {
  /** Batch `b`'s summaries, handed over once: nothing here keeps them after (the scan lets each batch go as it ends). */
  take(b: number): Promise<Map<number, FileState | Error> | null>;
}

/**
 * Hands the new files of every batch but the first to the pool at once (it answers tasks in
 * order, so earlier batches come back first) and gives, per batch, each file's summary by index
 * into `files`. The first batch (null) is read in the scan's thread while the workers start: its
 * rows are the first a host shows, and they should not wait for a worker to load.
 *
 * The first pooled batch goes out mixed with the last one (`spread`): readOrder puts every Claude
 * file before every Codex file after the newest, so a worker handed the first batch alone saw one
 * tool only, its V8 optimized the per-file functions (summarizeFile, feedAll, feedDigest) for it
 * and threw that code away at the other tool's first file. Only these two batches' results wait
 * for each other; the last one's are held to the end of the scan (at most SCAN_READ_BATCH).
 */
export function summarizeInPool(pool: ScanPool, batches: ReadonlyArray<readonly number[]>, files: readonly FoundFile[], stats: ReadonlyArray<ImportStat | Error>, isNew: Uint8Array, bytes: { n: number }, inThreadFirst: boolean): PooledBatches {
  const summarize = async (wanted: readonly number[]): Promise<Map<number, FileState | Error>> => {
    const jobs: SummarizeJob[] = wanted.map((i) => {
      const stat = stats[i] as ImportStat;
      return { path: files[i]!.path, source: files[i]!.source, size: stat.size, mtimeMs: stat.mtimeMs };
    });
    const run = await pool.run(jobs);
    bytes.n += run.bytes;
    return new Map(wanted.map((i, k) => [i, resultValue(run.results[k]!)]));
  };
  const newIn = (b: number): number[] => batches[b]!.filter((i) => isNew[i] === 1);
  const first = inThreadFirst ? 1 : 0;
  const last = batches.length - 1;
  // Queued before the other batches, so the workers' first tasks are these.
  const mixed = first < last ? summarize(spread(newIn(first), newIn(last))) : null;
  const pending: Array<Promise<Map<number, FileState | Error> | null> | undefined> = batches.map(async (_, b) => {
    if (b < first) return null;
    if (mixed && (b === first || b === last)) return takeOut(await mixed, newIn(b));
    return summarize(newIn(b));
  });
  return {
    // A settled promise keeps its value: held here to the end of a cold scan, every batch's digests were 100,000 at once.
    take(b) {
      const batch = pending[b];
      if (!batch) throw new Error(`scan pool: batch ${b} was taken already or does not exist`);
      pending[b] = undefined;
      return batch;
    },
  };
}

/** `a` and `b` in one list, each in its order, the shorter spread evenly through the longer. */
function spread(a: readonly number[], b: readonly number[]): number[] {
  if (a.length < b.length) return spread(b, a);
  const out: number[] = [];
  let j = 0;
  for (let k = 0; k < a.length; k++) {
    out.push(a[k]!);
    while (j < b.length && (j + 1) * a.length <= (k + 1) * b.length) out.push(b[j++]!);
  }
  return out;
}

/** `keys`' entries moved out of `from` (which the other batch's promise still holds) into a map of their own. */
function takeOut<V>(from: Map<number, V>, keys: readonly number[]): Map<number, V> {
  const own = new Map<number, V>();
  for (const k of keys) {
    own.set(k, from.get(k)!);
    from.delete(k);
  }
  return own;
}

/**
 * A pool for a scan with `newFiles` new files, or null when it would not pay (fewer than
 * POOL_MIN_FILES, workers turned off, one core, no worker script beside the bundle). Its fallback
 * summarizes a failed worker's files in this thread, the same way.
 */
export function startPoolFor(newFiles: number, options: Pick<ScanOptions, 'workers' | 'env'> & { onPartial?: unknown }): ScanPool | null {
  // After the scan's heap cap is set (readAndSettle: limitScanHeapGrowth before any pool starts).
  const workers = poolSize(workersWanted(options, { threadShare: !options.onPartial }));
  if (workers === 0 || newFiles < POOL_MIN_FILES || scanWorkerEntry() === null) return null;
  // A scan that lists its rows as it reads (onPartial) runs behind a page being loaded and drawn: its workers yield the cores to it.
  const nice = options.onPartial ? SCAN_WORKER_NICE : 0;
  // Without a page (a CLI listing) this thread summarizes too while the workers are busy: it idled half a cold listing.
  const youngMb = workerYoungMb(!options.onPartial, heapGrowthCapped());
  return startScanPool({ workers, nice, youngMb, threadShare: !options.onPartial, inThread: (jobs) => summarizeForScan(nodeImportReader, jobs, timeSlicer(SCAN_SLICE_MS)) });
}
