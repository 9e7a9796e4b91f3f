import { errnoOf } from './errors.js';
import { WHOLE_READ_MAX_BYTES } from './limits.js';
import { countingReader, type ImportReader } from './reader.js';
import { redactStates } from './redact-state.js';
import { summarizeFile, type FileState } from './summarize-file.js';
import type { AgentSource } from './types.js';

/**
 * One new session file for a scan worker (scan-pool.ts) to summarize: a regular, uncompressed,
 * non-empty file with nothing cached to continue from, as its stat saw it.
 */
export interface SummarizeJob {
  path: string;
  source: AgentSource;
  size: number;
  mtimeMs: number;
}

/** A job's outcome in a form a worker can post: the state, or the error's code and message. */
export type JobResult = { ok: true; state: FileState } | { ok: false; code: string | null; message: string };

/**
 * Summarizes new files the way the in-thread scan does (scan.ts readSmallFiles + summarizeFile):
 * the small ones read whole in one synchronous call when the reader can, each then digested;
 * a file that failed or changed size is opened by summarizeFile as before. `breathe` lets the
 * caller yield between files (in a worker nothing waits, so none is given).
 */
export async function summarizeJobs(reader: ImportReader, jobs: readonly SummarizeJob[], breathe?: () => Promise<void> | undefined): Promise<JobResult[]> {
  const small = jobs.flatMap((j, i) => (j.size <= WHOLE_READ_MAX_BYTES ? [i] : []));
  const prefixes = new Map<number, Buffer>();
  if (reader.readPrefixes && small.length > 0) {
    const read = await reader.readPrefixes(small.map((i) => ({ path: jobs[i]!.path, length: jobs[i]!.size })));
    small.forEach((i, k) => {
      const r = read[k]!;
      if (!(r instanceof Error)) prefixes.set(i, r);
    });
  }
  const out: JobResult[] = [];
  for (let i = 0; i < jobs.length; i++) {
    await breathe?.();
    const job = jobs[i]!;
    try {
      out.push({ ok: true, state: (await summarizeFile(reader, job.source, job.path, job, undefined, prefixes.get(i))).state });
    } catch (error) {
      out.push({ ok: false, code: errnoOf(error) ?? null, message: error instanceof Error ? error.message : String(error) });
    }
    prefixes.delete(i);
  }
  return out;
}

/** summarizeJobs, with the bytes it read (a worker's reply, and the pool's fallback in the scan's thread). */
export async function summarizeCounted(reader: ImportReader, jobs: readonly SummarizeJob[], breathe?: () => Promise<void> | undefined): Promise<{ results: JobResult[]; bytes: number }> {
  const counted = countingReader(reader);
  const results = await summarizeJobs(counted, jobs, breathe);
  return { results, bytes: counted.counts.bytes };
}

/**
 * What a scan worker hands back: summarizeCounted, with every state redacted (a title is the first
 * prompt, and a prompt may hold a key), so the scan's thread neither parses nor redacts. The same
 * redaction the scan applies per batch (redactStates: its batches change no finding).
 */
export async function summarizeForScan(reader: ImportReader, jobs: readonly SummarizeJob[], breathe?: () => Promise<void> | undefined): Promise<{ results: JobResult[]; bytes: number }> {
  const run = await summarizeCounted(reader, jobs, breathe);
  const read = run.results.flatMap((r, i) => (r.ok ? [i] : []));
  if (read.length === 0) return run;
  const value = await redactStates(read.map((i) => (run.results[i] as { state: FileState }).state));
  read.forEach((i, k) => (run.results[i] = { ok: true, state: value[k]! }));
  return run;
}

/** The result as summarizeFile would have given it in this thread: the state, or an Error with the same code. */
export function resultValue(result: JobResult): FileState | Error {
  if (result.ok) return result.state;
  const error = new Error(result.message) as NodeJS.ErrnoException;
  if (result.code !== null) error.code = result.code;
  return error;
}
