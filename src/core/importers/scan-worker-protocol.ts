import type { JobResult, SummarizeJob } from './summarize-jobs.js';

/**
 * The messages between a cold scan and its workers (scan-pool.ts ⇄ scan-worker.ts). Structured
 * clone carries them; both sides are built from this repository, so no version field.
 */
export interface ScanTask {
  id: number;
  jobs: SummarizeJob[];
}

export interface ScanTaskReply {
  id: number;
  results: JobResult[];
  /** Bytes the worker read for this task (the scan's bytesRead). */
  bytes: number;
}

/** What a worker is started with (worker_threads workerData). */
export interface ScanWorkerData {
  /** Niceness the worker sets on its own thread (Linux: setpriority applies to the calling thread). */
  nice: number;
}

/** The first message a worker posts: it loaded and listens. */
export const WORKER_READY = 'baton-scan-worker-ready';

/** A reply a worker may post, checked before use (a worker is our code, but a crash can cut anything). */
export function isTaskReply(value: unknown): value is ScanTaskReply {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<ScanTaskReply>;
  return typeof v.id === 'number' && Array.isArray(v.results) && typeof v.bytes === 'number';
}
