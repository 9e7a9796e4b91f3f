import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../test-support/seeded-random.js';
import { newDigest } from './digest.js';
import { emptyCache, forgetScanCacheMemo, loadScanCache, openScanCacheWriter, type ScanCache } from './scan-cache.js';
import type { FileState } from './summarize-file.js';

/** Paths and strings a scan may meet: quotes, backslashes, non-Latin text, lone surrogates, index-like keys. */
const ODD = ['"', '\\', '\n', 'é', '日本', '\ud83d\ude00', '\ud800', '\u2028', '0', '17', '4294967295', ' '];

function state(next: () => number): FileState {
  const pick = (): string => Array.from({ length: Math.floor(next() * 4) }, () => ODD[Math.floor(next() * ODD.length)]).join('');
  const digest = { ...newDigest(next() < 0.5 ? 'claude' : 'codex'), title: `t${pick()}`, cwd: next() < 0.3 ? null : `/home/${pick()}`, userCount: Math.floor(next() * 50), recentResponseIds: [pick(), pick()], endOffset: Math.floor(next() * 1e6) };
  return { size: Math.floor(next() * 1e6), mtimeMs: 1.79e12 + next() * 1e6, digest, checkHash: pick(), exact: next() < 0.5, fingerprint: `f${pick()}` };
}

/** Writes `cache` through openScanCacheWriter, entries in their insertion order. */
async function writeCache(file: string, cache: ScanCache): Promise<void> {
  const writer = await openScanCacheWriter(file);
  for (const [path, s] of Object.entries(cache.entries)) await writer.add(path, s);
  await writer.commit();
}

describe('the digest cache written entry by entry', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'baton-scan-cache-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('is JSON.stringify of the cache byte for byte, over 100 generated caches', async () => {
    const next = seededRandom(1501);
    const file = join(root, 'generated.json');
    for (let c = 0; c < 100; c++) {
      const cache: ScanCache = emptyCache();
      const n = Math.floor(next() * 40);
      // Absolute paths, as a scan's: JSON.stringify would move index-like keys ("17") first.
      for (let i = 0; i < n; i++) cache.entries[`/p/${i}${ODD[Math.floor(next() * ODD.length)]}`] = state(next);
      await writeCache(file, cache);
      expect(await readFile(file, 'utf8'), `cache ${c}`).toBe(JSON.stringify(cache));
    }
  });

  it('is written a megabyte at a time and loaded back as the same states (5,000 states, ~3 MB)', async () => {
    const next = seededRandom(77);
    const cache = emptyCache();
    for (let i = 0; i < 5_000; i++) cache.entries[`/p/${i}${ODD[i % ODD.length]}/${'x'.repeat(400)}`] = state(next);
    const file = join(root, 'importers-cache.json');
    await writeCache(file, cache);
    expect(await readFile(file, 'utf8')).toBe(JSON.stringify(cache));
    forgetScanCacheMemo();
    expect(await loadScanCache(file)).toEqual(JSON.parse(JSON.stringify(cache)));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('writes an entry larger than its write chunk, and the entries around it, byte for byte', async () => {
    const next = seededRandom(91);
    const cache = emptyCache();
    for (let i = 0; i < 40; i++) cache.entries[`/p/${i}/${i === 20 ? 'ü'.repeat(700_000) : 'x'.repeat(i * 1_000)}`] = state(next);
    const file = join(root, 'large-entry.json');
    await writeCache(file, cache);
    expect(await readFile(file, 'utf8')).toBe(JSON.stringify(cache));
  });

  it('aborted, leaves the cache it would have replaced and no temp file', async () => {
    const dir = await mkdtemp(join(root, 'abort-'));
    const file = join(dir, 'importers-cache.json');
    const old = emptyCache();
    old.entries['/old'] = state(seededRandom(3));
    await writeCache(file, old);
    const writer = await openScanCacheWriter(file);
    const next = seededRandom(4);
    for (let i = 0; i < 3_000; i++) await writer.add(`/p/${i}/${'y'.repeat(400)}`, state(next));
    await writer.abort();
    expect(await readFile(file, 'utf8')).toBe(JSON.stringify(old));
    expect(await readdir(dir)).toEqual(['importers-cache.json']);
  });
});
