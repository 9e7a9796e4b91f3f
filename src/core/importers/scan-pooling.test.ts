import { describe, expect, it } from 'vitest';
import type { FoundFile } from './discover.js';
import { POOL_TASK_FILES, SCAN_READ_BATCH } from './limits.js';
import type { ScanPool } from './scan-pool.js';
import type { SummarizeJob } from './summarize-jobs.js';
import { summarizeInPool } from './scan-pooling.js';

/** A pool that answers each job with an error naming its path (the pool's own behaviour is scan-pool.test.ts's). */
function namingPool(runs: Array<readonly SummarizeJob[]> = []): ScanPool {
  return {
    alive: 1,
    shared: 0,
    run: async (jobs) => (runs.push(jobs), { results: jobs.map((j) => ({ ok: false as const, code: null, message: j.path })), bytes: jobs.length }),
    retireWhenIdle: () => undefined,
    close: async () => undefined,
  };
}

describe('summarizeInPool', () => {
  it("hands each batch's summaries over once (nothing keeps a batch after its take), the first batch left to the scan's thread", async () => {
    const files: FoundFile[] = Array.from({ length: 10 }, (_, i) => ({ source: 'claude', path: `/p/${i}.jsonl`, compressed: false }));
    const stats = files.map((_, i) => ({ size: 100 + i, mtimeMs: i, isFile: true }));
    const isNew = Uint8Array.from(files, (_, i) => (i === 7 ? 0 : 1));
    const bytes = { n: 0 };
    const batches = [[0, 1], [2, 3, 4], [5, 6, 7], [8, 9]];
    const pooled = summarizeInPool(namingPool(), batches, files, stats, isNew, bytes, true);
    expect(await pooled.take(0)).toBeNull();
    for (let b = 1; b < batches.length; b++) {
      const got = await pooled.take(b);
      const wanted = batches[b]!.filter((i) => i !== 7);
      expect([...got!.keys()]).toEqual(wanted);
      for (const i of wanted) expect((got!.get(i) as Error).message).toBe(files[i]!.path);
      expect(() => pooled.take(b)).toThrow(/taken already/);
    }
    expect(bytes.n).toBe(7);
    expect(() => pooled.take(batches.length)).toThrow(/does not exist/);
  });

  it("mixes the first pooled batch with the last in the pool's first tasks: each worker's first task holds both tools", async () => {
    // As readOrder hands them after the newest: every Claude file, then every Codex file (a short last batch).
    const claudeFiles = SCAN_READ_BATCH * 3;
    const files: FoundFile[] = Array.from({ length: claudeFiles + 40 }, (_, i) => ({ source: i < claudeFiles ? 'claude' : 'codex', path: `/p/${i}.jsonl`, compressed: false }));
    const stats = files.map((_, i) => ({ size: 100 + i, mtimeMs: i, isFile: true }));
    const order = files.map((_, i) => i);
    const batches: number[][] = [];
    for (let from = 0; from < order.length; from += SCAN_READ_BATCH) batches.push(order.slice(from, from + SCAN_READ_BATCH));
    const runs: Array<readonly SummarizeJob[]> = [];
    const pooled = summarizeInPool(namingPool(runs), batches, files, stats, new Uint8Array(files.length).fill(1), { n: 0 }, true);
    const first = runs[0]!;
    expect(new Set(first.map((j) => j.path))).toEqual(new Set([...batches[1]!, ...batches.at(-1)!].map((i) => files[i]!.path)));
    for (let from = 0; from < first.length; from += POOL_TASK_FILES) expect(new Set(first.slice(from, from + POOL_TASK_FILES).map((j) => j.source))).toEqual(new Set(['claude', 'codex']));
    // Each batch still gets its own files' summaries, and only those.
    expect(await pooled.take(0)).toBeNull();
    for (let b = 1; b < batches.length; b++) expect([...(await pooled.take(b))!.keys()]).toEqual(batches[b]);
  });
});
