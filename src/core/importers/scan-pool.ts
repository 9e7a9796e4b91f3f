import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { markPhase } from '../perf/phase-trace.js';
import { POOL_TASK_FILES, SCAN_WORKER_YOUNG_MB } from './limits.js';
import { isTaskReply, WORKER_READY, type ScanTask, type ScanWorkerData } from './scan-worker-protocol.js';
import type { JobResult, SummarizeJob } from './summarize-jobs.js';

/** The worker's bundle, written next to every bundle that scans (scripts/build-scan-worker.js). */
export const SCAN_WORKER_FILE = 'scan-worker.cjs';

/** What a batch of jobs gave: results in job order, and the bytes read for them. */
export interface PoolRun {
  results: JobResult[];
  bytes: number;
}

/**
 * Worker threads that summarize a cold scan's new files (scan-worker.ts) while the scan's thread
 * stats, redacts and lists: on two cores, JSON parsing was a third of a cold `baton list`.
 * A worker that cannot start, crashes or answers nonsense is dropped, and its task (and, with no
 * worker left, every task after it) is summarized in this thread by `inThread`: same function,
 * same results, only slower.
 */
export interface ScanPool {
  /** Workers alive now (0 once every one failed: everything then runs in this thread). */
  readonly alive: number;
  /** Tasks this thread took from the queue while the workers were busy (threadShare). */
  readonly shared: number;
  run(jobs: readonly SummarizeJob[]): Promise<PoolRun>;
  /**
   * No task is to come: each worker ends as soon as the queue holds nothing for it. A cold
   * listing's two workers (~15-25 MB each) idled to the end of its read while its thread settled
   * the last batches, when its heap is largest (bench/README.md, issue 15, eleventh sitting).
   * A task run after this goes to the workers still up, else to this thread.
   */
  retireWhenIdle(): void;
  /** Ends the workers; tasks still queued are finished in this thread. */
  close(): Promise<void>;
}

export interface ScanPoolOptions {
  workers: number;
  /** The fallback: summarizes jobs in this thread. */
  inThread: (jobs: readonly SummarizeJob[]) => Promise<PoolRun>;
  /** The worker script (tests: a broken one); defaults to scanWorkerEntry(). */
  workerFile?: string;
  /** Niceness of the worker threads (scan-worker.ts), 0 to 19: a scan behind a UI yields the cores to it. */
  nice?: number;
  /**
   * This thread takes queued tasks too (by `inThread`, one at a time, the next in the queue, as a
   * worker would) while every worker is busy. A cold `baton list`'s thread idled half the run
   * waiting on two workers with a core to spare; a scan behind a page (a host) keeps its thread for
   * the page.
   */
  threadShare?: boolean;
  /** Each worker's young generation (MB); default SCAN_WORKER_YOUNG_MB (scan-pooling.ts workerYoungMb picks). */
  youngMb?: number;
}

interface Task {
  id: number;
  jobs: readonly SummarizeJob[];
  done: (run: PoolRun) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  task: Task | null;
  dead: boolean;
}

/** Where this module's worker lives: the bundle beside the running bundle, else the TypeScript source (run through tsx). */
export function scanWorkerEntry(): { file: string; source: boolean } | null {
  let here: string;
  try {
    here = dirname(fileURLToPath(import.meta.url));
  } catch {
    return null;
  }
  for (const file of [join(here, SCAN_WORKER_FILE), join(here, '..', SCAN_WORKER_FILE)]) if (existsSync(file)) return { file, source: false };
  const source = join(here, 'scan-worker.ts');
  return import.meta.url.endsWith('.ts') && existsSync(source) ? { file: source, source: true } : null;
}

/** A worker for a TypeScript entry: tsx's CommonJS hook registered first (development and tests only). */
function sourceWorker(file: string, workerData: ScanWorkerData, resourceLimits: ResourceLimits): Worker {
  const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
  return new Worker(`require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(file)});`, { eval: true, workerData, resourceLimits });
}

/** How many workers a cold scan starts: `requested`, but none on one core (they would only compete with the scan). */
export function poolSize(requested: number): number {
  return availableParallelism() < 2 ? 0 : Math.max(0, Math.floor(requested));
}

export function startScanPool(options: ScanPoolOptions): ScanPool {
  const entry = options.workerFile !== undefined ? { file: options.workerFile, source: options.workerFile.endsWith('.ts') } : scanWorkerEntry();
  const resourceLimits: ResourceLimits = { maxYoungGenerationSizeMb: options.youngMb ?? SCAN_WORKER_YOUNG_MB };
  const slots: Slot[] = [];
  const queue: Task[] = [];
  let nextId = 0;
  let closed = false;
  // Fallback tasks run one after another: two in-thread parses at once would only interleave.
  let inThreadChain: Promise<unknown> = Promise.resolve();
  // A shared task (threadShare) is running in this thread: one at a time, so the scan's own work interleaves.
  let sharing = false;
  let shared = 0;
  let retiring = false;

  const runInThread = (task: Task): void => {
    const run = inThreadChain.then(() => options.inThread(task.jobs));
    inThreadChain = run.catch(() => undefined);
    // inThread never rejects for a bad file (summarizeJobs catches per file); a bug would surface here.
    void run.then(task.done);
  };

  const dispatch = (): void => {
    if (slots.every((s) => s.dead) || closed) {
      while (queue.length > 0) runInThread(queue.shift()!);
      return;
    }
    for (const slot of slots) {
      if (queue.length === 0) return;
      if (slot.dead || !slot.ready || slot.task) continue;
      const task = queue.shift()!;
      slot.task = task;
      const message: ScanTask = { id: task.id, jobs: [...task.jobs] };
      slot.worker.postMessage(message);
    }
    if (options.threadShare && !sharing && queue.length > 0) {
      // The next task, not the last: the scan settles its batches in order, so a batch parsed here
      // from the queue's end waited, parsed, for the scan to reach it. Every such batch was settled
      // after the workers had run out of tasks, with a core idle: 130-250 ms at the end of a 20k cold
      // listing with one worker (bench/README.md, issue 15, fifteenth sitting).
      const task = queue.shift()!;
      sharing = true;
      shared += 1;
      runInThread({
        ...task,
        done: (run) => {
          sharing = false;
          task.done(run);
          pump();
        },
      });
    }
  };

  // After retireWhenIdle, a worker with no task once the queue is empty has nothing more to do.
  const retireIdle = (): void => {
    if (!retiring || queue.length > 0) return;
    for (const slot of slots) {
      if (slot.dead || slot.task) continue;
      slot.dead = true;
      void slot.worker.terminate();
    }
    // A trace shows how long the scan's thread went on alone (bench/importers/cold-pool.ts "tail").
    if (slots.length > 0 && slots.every((s) => s.dead)) markPhase('scan-workers-retired');
  };

  const pump = (): void => {
    dispatch();
    retireIdle();
  };

  const drop = (slot: Slot): void => {
    if (slot.dead) return;
    slot.dead = true;
    const task = slot.task;
    slot.task = null;
    void slot.worker.terminate();
    if (task) runInThread(task);
    pump();
  };

  if (entry) {
    for (let n = 0; n < options.workers; n++) {
      let worker: Worker;
      try {
        const workerData: ScanWorkerData = { nice: options.nice ?? 0 };
        worker = entry.source ? sourceWorker(entry.file, workerData, resourceLimits) : new Worker(entry.file, { workerData, resourceLimits });
      } catch {
        break;
      }
      const slot: Slot = { worker, ready: false, task: null, dead: false };
      slots.push(slot);
      worker.on('message', (message: unknown) => {
        if (!slot.ready) {
          if (message === WORKER_READY) {
            slot.ready = true;
            pump();
          } else drop(slot);
          return;
        }
        const task = slot.task;
        if (!task || !isTaskReply(message) || message.id !== task.id || message.results.length !== task.jobs.length) return drop(slot);
        slot.task = null;
        // A trace (BATON_PHASE_TRACE) shows the workers ran: the installed package's test checks it.
        markPhase('scan-worker-answered');
        task.done({ results: message.results, bytes: message.bytes });
        pump();
      });
      worker.on('error', () => drop(slot));
      worker.on('exit', () => drop(slot));
    }
  }

  return {
    get alive() {
      return slots.filter((s) => !s.dead).length;
    },
    get shared() {
      return shared;
    },
    async run(jobs) {
      const parts: Array<Promise<PoolRun>> = [];
      for (let from = 0; from < jobs.length; from += POOL_TASK_FILES) {
        const part = jobs.slice(from, from + POOL_TASK_FILES);
        parts.push(new Promise<PoolRun>((done) => queue.push({ id: nextId++, jobs: part, done })));
      }
      pump();
      const runs = await Promise.all(parts);
      return { results: runs.flatMap((r) => r.results), bytes: runs.reduce((sum, r) => sum + r.bytes, 0) };
    },
    retireWhenIdle() {
      retiring = true;
      pump();
    },
    async close() {
      closed = true;
      // A task still in flight (the scan failed part-way) is finished here, so no await hangs.
      for (const slot of slots) {
        const task = slot.task;
        slot.task = null;
        slot.dead = true;
        if (task) runInThread(task);
      }
      pump();
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
