import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POOL_MIN_FILES, SCAN_FIRST_ROWS, SCAN_READ_BATCH, SCAN_SLICE_MS, SCAN_WORKER_NICE, STAT_BATCH } from './limits.js';
import type { FoundFile } from './discover.js';
import { countingReader, nodeImportReader, type ImportStat } from './reader.js';
import { readOrder, scanCandidateIndexFull } from './scan.js';
import { timeSlicer } from './time-slicer.js';
import type { IndexEntry } from './candidate-index.js';
import { claude, claudeLogPath, codex, codexLogPath, writeLog } from './test-fixtures/build-logs.js';

/** A small deterministic generator (mulberry32): the same cases on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const mtimeOf = (s: ImportStat | Error): number => (s instanceof Error ? 0 : s.mtimeMs);

describe('readOrder', () => {
  it('puts the newest files of both tools first, then Claude, then Codex, each newest first, over 300 generated folders', () => {
    const next = random(15);
    for (let c = 0; c < 300; c++) {
      const n = Math.floor(next() * SCAN_READ_BATCH * 3);
      // Few distinct mtimes, so ties are common; some stats failed (read last, as mtime 0).
      const files: FoundFile[] = Array.from({ length: n }, (_, i) => ({ source: next() < 0.5 ? 'claude' : 'codex', path: `/f/${i}`, compressed: false }) as FoundFile);
      const stats: Array<ImportStat | Error> = files.map(() => (next() < 0.05 ? new Error('EIO') : { size: 10, isFile: true, mtimeMs: Math.floor(next() * 50) * 1000 }));
      // Only some files need reading, in discovery order, as the scan hands them.
      const toRead = files.map((_, i) => i).filter(() => next() < 0.9);
      const given = [...toRead];
      readOrder(toRead, files, stats);

      expect([...toRead].sort((a, b) => a - b)).toEqual(given);
      const head = toRead.slice(0, SCAN_READ_BATCH);
      const rest = toRead.slice(SCAN_READ_BATCH);
      // The head is the newest of all; ties in discovery order.
      for (let k = 1; k < head.length; k++) {
        const [a, b] = [head[k - 1]!, head[k]!];
        expect(mtimeOf(stats[a]!) > mtimeOf(stats[b]!) || (mtimeOf(stats[a]!) === mtimeOf(stats[b]!) && a < b)).toBe(true);
      }
      if (rest.length > 0) expect(Math.min(...head.map((i) => mtimeOf(stats[i]!)))).toBeGreaterThanOrEqual(Math.max(...rest.map((i) => mtimeOf(stats[i]!))));
      // The rest: every Claude file before every Codex file, each newest first.
      const firstCodex = rest.findIndex((i) => files[i]!.source === 'codex');
      if (firstCodex >= 0) expect(rest.slice(firstCodex).every((i) => files[i]!.source === 'codex')).toBe(true);
      for (let k = 1; k < rest.length; k++) {
        const [a, b] = [rest[k - 1]!, rest[k]!];
        if (files[a]!.source === files[b]!.source) expect(mtimeOf(stats[a]!) >= mtimeOf(stats[b]!)).toBe(true);
      }
    }
  });
});

describe('timeSlicer', () => {
  it('pauses once per slice, and concurrent workers wait for the same turn', async () => {
    const breathe = timeSlicer(SCAN_SLICE_MS);
    expect(breathe()).toBeUndefined();
    // Queued while the scan works (as a request would be): it runs before the scan goes on.
    let turned = false;
    setImmediate(() => (turned = true));
    const busyUntil = performance.now() + SCAN_SLICE_MS + 2;
    while (performance.now() < busyUntil);
    const first = breathe();
    expect(first).toBeInstanceOf(Promise);
    expect(breathe()).toBe(first);
    expect(turned).toBe(false);
    await first;
    expect(turned).toBe(true);
    expect(breathe()).toBeUndefined();
  });
});

describe('a cold scan lists the newest sessions first', () => {
  let root: string;
  let home: string;
  const mtimes = new Map<string, number>();
  const COUNT = SCAN_READ_BATCH * 2 + 50;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'baton-order-'));
    home = join(root, 'home');
    const next = random(7);
    for (let i = 0; i < COUNT; i++) {
      const id = `eeeeeeee-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const path =
        i % 2 === 0
          ? await writeLog(claudeLogPath(home, '/home/dev/a', id), [
              claude.user({ uuid: `${id}-u`, cwd: '/home/dev/a', sessionId: id }, `prompt ${i}`),
              claude.assistant({ uuid: `${id}-a`, parentUuid: `${id}-u`, cwd: '/home/dev/a', sessionId: id }, `${id}-m`, claude.text('ok')),
            ])
          : await writeLog(codexLogPath(join(home, '.codex'), id, `2026/11/${String(1 + (i % 28)).padStart(2, '0')}`), [
              codex.meta(id),
              codex.message('user', `prompt ${i}`),
              codex.userEvent(`prompt ${i}`),
              codex.message('assistant', 'ok'),
            ]);
      // Distinct whole seconds: newest is unambiguous on every file system.
      const seconds = 1_790_000_000 + Math.floor(next() * 1e6) * 10 + i;
      await utimes(path, seconds, seconds);
      mtimes.set(path, seconds * 1000);
    }
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('picks its first SCAN_FIRST_ROWS rows having stat\'ed every Claude file and only the newest-named Codex ones, reads only them, then lists every file', async () => {
    const partials: IndexEntry[][] = [];
    const counting = countingReader();
    const statted: string[] = [];
    // The stats asked after the first rows, call by call: each holds the event loop for one turn.
    const callsAfterFirst: number[] = [];
    const reader = {
      ...counting,
      statMany: (paths: string[]) => {
        if (partials.length > 0) callsAfterFirst.push(paths.length);
        statted.push(...paths);
        return nodeImportReader.statMany!(paths);
      },
    };
    let openedBeforeFirst = -1;
    let stattedBeforeFirst = -1;
    const onPartial = (added: IndexEntry[]) => {
      if (partials.length === 0) [openedBeforeFirst, stattedBeforeFirst] = [counting.counts.byPath.size, statted.length];
      partials.push(added);
    };
    const result = await scanCandidateIndexFull({ env: { HOME: home }, cacheFile: join(root, 'data', 'importers-cache.json'), reader, onPartial });
    // A rollout is named by its start (first-rows.ts): the newest-named Codex files and every Claude file are the first rows' candidates.
    const paths = [...mtimes.keys()];
    const codexByName = paths.filter((p) => p.includes('.codex')).sort((a, b) => (basename(a) < basename(b) ? 1 : -1));
    const candidates = [...paths.filter((p) => !p.includes('.codex')), ...codexByName.slice(0, SCAN_FIRST_ROWS)];
    const newestOf = (list: string[]) => [...list].sort((a, b) => mtimes.get(b)! - mtimes.get(a)!).slice(0, SCAN_FIRST_ROWS);
    expect(partials.length).toBeGreaterThan(0);
    // The first rows wait for the first screen's files and the stats they are picked from, not for a whole read batch or every stat.
    expect(openedBeforeFirst).toBe(SCAN_FIRST_ROWS);
    expect(stattedBeforeFirst).toBe(candidates.length);
    expect(new Set(statted)).toEqual(new Set(paths));
    // The rest runs while the page asks for the first rows: in slices smaller than a stat batch, not one call.
    expect(callsAfterFirst.length).toBeGreaterThan(1);
    expect(Math.max(...callsAfterFirst)).toBeLessThan(STAT_BATCH);
    expect(new Set(partials[0]!.map((e) => e.path))).toEqual(new Set(newestOf(candidates)));
    expect(new Set(partials[0]!.map((e) => e.source))).toEqual(new Set(['claude', 'codex']));
    // A rollout resumed after its start (its mtime newer than its name) is not among the first rows; it comes later, in the list's final order.
    const firstPaths = new Set(partials[0]!.map((e) => e.path));
    expect(newestOf(paths).filter((p) => !firstPaths.has(p)).length).toBeGreaterThan(0);
    expect(result.scan.entries).toHaveLength(COUNT);
    expect(new Set(result.scan.entries.map((e) => e.path))).toEqual(new Set(mtimes.keys()));
    // Every partial row is the final row (same candidate), and none comes twice.
    const listed = partials.flat();
    expect(new Set(listed.map((e) => e.path)).size).toBe(listed.length);
    const final = new Map(result.scan.entries.map((e) => [e.path, e]));
    for (const e of listed) expect(e.candidate()).toEqual(final.get(e.path)!.candidate());
  });

  it('stats every file before its first batch when it does not list rows as it reads (the CLI)', async () => {
    const statted: string[] = [];
    const counting = countingReader();
    let stattedAtFirstOpen = -1;
    const reader = {
      ...counting,
      statMany: (paths: string[]) => (statted.push(...paths), nodeImportReader.statMany!(paths)),
      readPrefixes: (items: ReadonlyArray<{ path: string; length: number }>) => {
        if (stattedAtFirstOpen < 0) stattedAtFirstOpen = statted.length;
        return counting.readPrefixes!(items);
      },
    };
    const result = await scanCandidateIndexFull({ env: { HOME: home }, cacheFile: join(root, 'data-cli', 'importers-cache.json'), reader });
    expect(stattedAtFirstOpen).toBe(COUNT);
    expect(result.scan.entries).toHaveLength(COUNT);
  });

  it('starts its scan workers only once the first rows are listed (they competed with them and the page for the cores), and still uses them', async () => {
    expect(COUNT).toBeGreaterThanOrEqual(POOL_MIN_FILES);
    const threadsBefore = new Set(readdirSync(`/proc/${process.pid}/task`));
    const newThreads = (): string[] => readdirSync(`/proc/${process.pid}/task`).filter((tid) => !threadsBefore.has(tid));
    // Behind a page the workers renice themselves once loaded: a new thread at SCAN_WORKER_NICE is one of them.
    const niceOf = (tid: string): number => {
      const stat = readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    const atPartials: number[] = [];
    // Seen while the scan runs, not at its end: the workers retire once the queue holds nothing
    // more for them (scan-pool.ts retireWhenIdle), which can be before the last file is settled.
    let workersSeen = 0;
    const lookForWorkers = (): void => {
      workersSeen = Math.max(workersSeen, newThreads().filter((tid) => niceOf(tid) === SCAN_WORKER_NICE).length);
    };
    const watching = setInterval(lookForWorkers, 5);
    const result = await scanCandidateIndexFull({
      env: { HOME: home },
      cacheFile: join(root, 'data-pool', 'importers-cache.json'),
      onPartial: () => atPartials.push(newThreads().length),
      onProgress: lookForWorkers,
    }).finally(() => clearInterval(watching));
    expect(result.scan.entries).toHaveLength(COUNT);
    expect(atPartials[0]).toBe(0);
    if (availableParallelism() >= 2) expect(workersSeen).toBeGreaterThan(0);
  });
});
