import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeImportReader } from './reader.js';
import { newStatShare, STAT_SHARE_CHUNK, statNextChunk, statShareDone, statShareResults } from './stat-share.js';

/** What statMany gives, errors by code (two Error objects are never equal). */
function comparable(stats: ReadonlyArray<unknown>): unknown[] {
  return stats.map((s) => (s instanceof Error ? { error: (s as NodeJS.ErrnoException).code } : s));
}

describe('a scan’s stats shared by chunks (stat-share.ts)', () => {
  let root: string;
  let paths: string[];

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'baton-stat-share-'));
    const file = join(root, 'a.jsonl');
    const empty = join(root, 'b.jsonl');
    await writeFile(file, '{"type":"user"}\n');
    await writeFile(empty, '');
    // A fractional mtime: the shared Float64 must carry it exactly, as the digest cache stores it.
    await utimes(file, 1_790_000_000.123456, 1_790_000_000.123456);
    await mkdir(join(root, 'dir.jsonl'));
    const kinds = [file, empty, join(root, 'dir.jsonl'), join(root, 'missing.jsonl'), join(root, 'a.jsonl', 'not-a-dir.jsonl')];
    // Three chunks and a part: every kind in each.
    paths = Array.from({ length: STAT_SHARE_CHUNK * 3 + 7 }, (_, i) => kinds[i % kinds.length]!);
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('gives statMany’s results, its errors with their codes (ENOENT, ENOTDIR), in order', async () => {
    const share = newStatShare(paths);
    let chunks = 0;
    while (statNextChunk(share)) chunks += 1;
    expect(chunks).toBe(4);
    expect(statShareDone(share)).toBe(true);
    expect(comparable(statShareResults(share))).toEqual(comparable(await nodeImportReader.statMany!(paths)));
  });

  it('stats a chunk claimed by a thread that died before writing it (its results are not zeros)', async () => {
    const share = newStatShare(paths);
    // Another thread claims the first chunk and is gone.
    Atomics.add(new Int32Array(share.next), 0, 1);
    let chunks = 0;
    while (statNextChunk(share)) chunks += 1;
    expect(chunks).toBe(3);
    expect(statShareDone(share)).toBe(false);
    expect(comparable(statShareResults(share))).toEqual(comparable(await nodeImportReader.statMany!(paths)));
  });
});
