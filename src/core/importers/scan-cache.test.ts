import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../test-support/seeded-random.js';
import { newDigest } from './digest.js';
import { emptyCache, forgetScanCacheMemo, loadScanCache, rememberStateJson, saveScanCache, scanCacheJson, type ScanCache } from './scan-cache.js';
import type { FileState } from './summarize-file.js';

/** Paths and strings a scan may meet: quotes, backslashes, non-Latin text, lone surrogates, index-like keys. */
const ODD = ['"', '\\', '\n', 'é', '日本', '\ud83d\ude00', '\ud800', '\u2028', '0', '17', '4294967295', ' '];

function state(next: () => number): FileState {
  const pick = (): string => Array.from({ length: Math.floor(next() * 4) }, () => ODD[Math.floor(next() * ODD.length)]).join('');
  const digest = { ...newDigest(next() < 0.5 ? 'claude' : 'codex'), title: `t${pick()}`, cwd: next() < 0.3 ? null : `/home/${pick()}`, userCount: Math.floor(next() * 50), recentResponseIds: [pick(), pick()], endOffset: Math.floor(next() * 1e6) };
  return { size: Math.floor(next() * 1e6), mtimeMs: 1.79e12 + next() * 1e6, digest, checkHash: pick(), exact: next() < 0.5, fingerprint: `f${pick()}` };
}

describe('the digest cache text', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'baton-scan-cache-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('is JSON.stringify of the cache byte for byte, with states serialized ahead or not, over 300 generated caches', () => {
    const next = seededRandom(1501);
    for (let c = 0; c < 300; c++) {
      const cache: ScanCache = emptyCache();
      const n = Math.floor(next() * 40);
      for (let i = 0; i < n; i++) {
        const path = next() < 0.1 ? String(Math.floor(next() * 100)) : `/p/${i}${ODD[Math.floor(next() * ODD.length)]}`;
        const s = state(next);
        if (next() < 0.7) rememberStateJson(s);
        cache.entries[path] = s;
      }
      expect(scanCacheJson(cache), `cache ${c}`).toBe(JSON.stringify(cache));
    }
  });

  it('is saved and loaded back as the same states', async () => {
    const next = seededRandom(77);
    const cache = emptyCache();
    for (let i = 0; i < 50; i++) {
      const s = state(next);
      rememberStateJson(s);
      cache.entries[`/p/${i}${ODD[i % ODD.length]}`] = s;
    }
    const file = join(root, 'importers-cache.json');
    await saveScanCache(file, cache);
    expect(await readFile(file, 'utf8')).toBe(JSON.stringify(cache));
    forgetScanCacheMemo();
    expect(await loadScanCache(file)).toEqual(JSON.parse(JSON.stringify(cache)));
  });
});
