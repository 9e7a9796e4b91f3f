import { statSync } from 'node:fs';
import type { ImportStat } from './reader.js';

/**
 * A cold scan's stats shared by two threads (scan.ts with its pool's worker, scan-pool.ts): both
 * claim chunks of the path list from one shared counter and write each file's size, mtime and kind
 * into shared memory. At 20,000 files the stats (~0.25 s of syscalls and ~0.1 s of Node's Stats
 * objects) ran on the scan's thread alone while the worker, loaded, waited for its first task
 * (bench/README.md, issue 15, sixteenth and seventeenth sittings). Whoever is free takes the next
 * chunk, so a worker still loading takes none and a fast one takes half.
 */

/** Files per claim: small enough that both threads finish near together, large enough that claims cost nothing. */
export const STAT_SHARE_CHUNK = 256;

/** Kinds written per file (a NaN-free Float64 like the size and mtime beside it). */
const KIND_FAILED = -1;
const KIND_OTHER = 0;
const KIND_FILE = 1;
/** Not yet written (a chunk claimed by a thread that died): the scan's thread stats it itself. */
const CHUNK_OPEN = 0;
const CHUNK_DONE = 1;

/** What both threads share: the paths (copied to the worker once) and three shared buffers. */
export interface StatShare {
  paths: string[];
  /** Int32Array(1): the next chunk to claim. */
  next: SharedArrayBuffer;
  /** Int32Array(chunks): CHUNK_DONE once a chunk's results are written. */
  done: SharedArrayBuffer;
  /** Float64Array(3 × paths): size, mtimeMs, kind per path. */
  out: SharedArrayBuffer;
}

export function newStatShare(paths: string[]): StatShare {
  const chunks = Math.ceil(paths.length / STAT_SHARE_CHUNK);
  return { paths, next: new SharedArrayBuffer(4), done: new SharedArrayBuffer(4 * chunks), out: new SharedArrayBuffer(8 * 3 * paths.length) };
}

/** A message that can be a share (a worker is our code, but a crash can cut anything). */
export function isStatShare(value: unknown): value is StatShare {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<StatShare>;
  return Array.isArray(v.paths) && v.next instanceof SharedArrayBuffer && v.done instanceof SharedArrayBuffer && v.out instanceof SharedArrayBuffer && v.out.byteLength === 24 * v.paths.length;
}

function chunksOf(share: StatShare): number {
  return share.done.byteLength / 4;
}

/** Stats chunk `k` into the shared results and marks it done. */
function statChunk(share: StatShare, out: Float64Array, done: Int32Array, k: number): void {
  const end = Math.min(share.paths.length, (k + 1) * STAT_SHARE_CHUNK);
  for (let i = k * STAT_SHARE_CHUNK; i < end; i++) {
    try {
      const s = statSync(share.paths[i]!);
      out[3 * i] = s.size;
      out[3 * i + 1] = s.mtimeMs;
      out[3 * i + 2] = s.isFile() ? KIND_FILE : KIND_OTHER;
    } catch {
      // The error itself (its code) is the scan thread's to make: it stats this file again.
      out[3 * i + 2] = KIND_FAILED;
    }
  }
  Atomics.store(done, k, CHUNK_DONE);
}

/**
 * Claims the next chunk and stats it; false when none was left. The scan's thread yields between
 * calls (as statMany did); a worker loops without.
 */
export function statNextChunk(share: StatShare): boolean {
  const k = Atomics.add(new Int32Array(share.next), 0, 1);
  if (k >= chunksOf(share)) return false;
  statChunk(share, new Float64Array(share.out), new Int32Array(share.done), k);
  return true;
}

/** Whether every chunk is written (else a helper still holds one, or died holding it). */
export function statShareDone(share: StatShare): boolean {
  const done = new Int32Array(share.done);
  for (let k = 0; k < done.length; k++) if (Atomics.load(done, k) !== CHUNK_DONE) return false;
  return true;
}

/**
 * The results, as statMany gives them: a chunk left open (its helper died) is stat'ed here, and a
 * file whose stat failed is stat'ed again here for its Error (its code: ENOENT is "vanished").
 */
export function statShareResults(share: StatShare): Array<ImportStat | Error> {
  const done = new Int32Array(share.done);
  const out = new Float64Array(share.out);
  for (let k = 0; k < done.length; k++) if (Atomics.load(done, k) === CHUNK_OPEN) statChunk(share, out, done, k);
  const results: Array<ImportStat | Error> = new Array(share.paths.length);
  for (let i = 0; i < share.paths.length; i++) {
    const kind = out[3 * i + 2]!;
    if (kind !== KIND_FAILED) results[i] = { size: out[3 * i]!, mtimeMs: out[3 * i + 1]!, isFile: kind === KIND_FILE };
    else results[i] = statAgain(share.paths[i]!);
  }
  return results;
}

function statAgain(path: string): ImportStat | Error {
  try {
    const s = statSync(path);
    return { size: s.size, mtimeMs: s.mtimeMs, isFile: s.isFile() };
  } catch (error) {
    return error as Error;
  }
}
