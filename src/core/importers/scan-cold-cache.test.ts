import { mkdtemp, readFile, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ScanCache } from './scan-cache.js';
import { scanCandidateIndexFull } from './scan.js';
import { claude, claudeLogPath, codex, codexLogPath, writeLog } from './test-fixtures/build-logs.js';

/**
 * The real digest cache, loaded by the real loadScanCache, with its entries behind a proxy that
 * counts the paths looked up in it: a cold scan's cache is empty, and every lookup there hashed
 * and internalized a path for nothing (bench/README.md, issue 15, sixteenth sitting).
 */
const lookups = { n: 0 };
vi.mock('./scan-cache.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./scan-cache.js')>();
  const counted = (cache: ScanCache): ScanCache => ({
    ...cache,
    entries: new Proxy(cache.entries, {
      get(target, key, receiver) {
        if (typeof key === 'string') lookups.n += 1;
        return Reflect.get(target, key, receiver) as unknown;
      },
      has(target, key) {
        if (typeof key === 'string') lookups.n += 1;
        return Reflect.has(target, key);
      },
    }),
  });
  return { ...real, loadScanCache: async (file: string | undefined) => counted(await real.loadScanCache(file)) };
});

describe('a cold scan and its empty digest cache', () => {
  let root: string;
  let home: string;
  const COUNT = 24;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'baton-cold-cache-'));
    home = join(root, 'home');
    for (let i = 0; i < COUNT; i++) {
      const id = `cccccccc-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const path =
        i % 2 === 0
          ? await writeLog(claudeLogPath(home, '/home/dev/a', id), [
              claude.user({ uuid: `${id}-u`, cwd: '/home/dev/a', sessionId: id }, `prompt ${i}`),
              claude.assistant({ uuid: `${id}-a`, parentUuid: `${id}-u`, cwd: '/home/dev/a', sessionId: id }, `${id}-m`, claude.text('ok')),
            ])
          : await writeLog(codexLogPath(join(home, '.codex'), id), [codex.meta(id), codex.message('user', `prompt ${i}`), codex.userEvent(`prompt ${i}`), codex.message('assistant', 'ok')]);
      await utimes(path, 1_790_000_000 + i, 1_790_000_000 + i);
    }
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('looks no path up in it, and writes every state it read; the next scan (a warm cache) does look its paths up', async () => {
    const cacheFile = join(root, 'data', 'importers-cache.json');
    lookups.n = 0;
    const cold = await scanCandidateIndexFull({ env: { HOME: home }, cacheFile, workers: 0 });
    expect(cold.scan.entries).toHaveLength(COUNT);
    expect(cold.scan.stats.parsed).toBe(COUNT);
    // Before: each file's path was looked up in the empty entries 3 times (new-file count, small-file read, scanOne) and once more per written state.
    expect(lookups.n).toBe(0);
    const written = JSON.parse(await readFile(cacheFile, 'utf8')) as ScanCache;
    expect(Object.keys(written.entries)).toHaveLength(COUNT);

    // A grown file is continued from its cached state: the lookups still happen where the cache holds states.
    const grown = claudeLogPath(home, '/home/dev/a', 'cccccccc-0000-4000-8000-000000000000');
    await writeLog(grown, [
      claude.user({ uuid: 'g-u', cwd: '/home/dev/a', sessionId: 'cccccccc-0000-4000-8000-000000000000' }, 'prompt 0'),
      claude.assistant({ uuid: 'g-a', parentUuid: 'g-u', cwd: '/home/dev/a', sessionId: 'cccccccc-0000-4000-8000-000000000000' }, 'g-m', claude.text('ok')),
      claude.user({ uuid: 'g-u2', parentUuid: 'g-a', cwd: '/home/dev/a', sessionId: 'cccccccc-0000-4000-8000-000000000000' }, 'more'),
    ]);
    lookups.n = 0;
    const warm = await scanCandidateIndexFull({ env: { HOME: home }, cacheFile, workers: 0, loaded: null });
    expect(warm.scan.entries).toHaveLength(COUNT);
    expect(lookups.n).toBeGreaterThanOrEqual(COUNT);
    expect(Object.keys((JSON.parse(await readFile(cacheFile, 'utf8')) as ScanCache).entries)).toHaveLength(COUNT);
  });
});
