import { describe, expect, it } from 'vitest';
import type { FoundFile } from './discover.js';
import type { ScanPool } from './scan-pool.js';
import { summarizeInPool } from './scan-pooling.js';

/** A pool that answers each job with an error naming its path (the pool's own behaviour is scan-pool.test.ts's). */
function namingPool(): ScanPool {
  return {
    alive: 1,
    shared: 0,
    run: async (jobs) => ({ results: jobs.map((j) => ({ ok: false as const, code: null, message: j.path })), bytes: jobs.length }),
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
});
