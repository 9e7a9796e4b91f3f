import { open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStore } from '../store/index.js';
import { memoryKeyStore } from '../store/at-rest/test-support/memory-key-store.js';
import { cipherOf } from '../store/at-rest/encrypting-fs.js';
import { storeFsFor } from '../store/at-rest/registry.js';
import { STREAM_HEADER_BYTES, STREAM_MARK } from '../store/at-rest/pieces-header.js';
import { FILE_MAGIC, KEY_ID_CHARS } from '../store/at-rest/at-rest-cipher.js';
import { newDigest } from './digest.js';
import { emptyCache, forgetScanCacheMemo, loadScanCache, openScanCacheWriter, type ScanCache } from './scan-cache.js';

/**
 * The importers' cache of an encrypted store (issue 17) is sealed in pieces as it is written: the
 * temp file holds ciphertext before the commit (the text is not gathered whole to be sealed at the
 * end), the cache loads back as the same states, a cache sealed whole (the layout before) still
 * loads, and a damaged one is an empty cache (rebuilt by the scan), never read as other states.
 */
let dataDir: string;
let store: Awaited<ReturnType<typeof openStore>>;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'baton-sealed-scan-cache-'));
  store = await openStore(dataDir, { keyStore: memoryKeyStore() });
  expect(store.atRest.state).toBe('on');
});
afterAll(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

function cacheOf(n: number): ScanCache {
  const cache = emptyCache();
  for (let i = 0; i < n; i++) {
    const digest = { ...newDigest('claude'), title: `secret title ${i}`, cwd: `/home/dev/p${i % 9}`, endOffset: i * 10 };
    cache.entries[`/h/.claude/projects/p/${i}-${'x'.repeat(300)}.jsonl`] = { size: i, mtimeMs: 1.79e12 + i, digest, checkHash: `h${i}`, exact: true, fingerprint: `f${i}` };
  }
  return cache;
}

describe('an encrypted store\'s importers\' cache', () => {
  it('is sealed in pieces while it is written, and loads back as the same states', async () => {
    const file = join(dataDir, 'importers-cache.json');
    const cache = cacheOf(8_000);
    const writer = await openScanCacheWriter(file);
    for (const [path, s] of Object.entries(cache.entries)) await writer.add(path, s);
    // Before the commit, the temp file already holds the sealed megabytes written so far.
    const temp = (await readdir(dataDir)).find((n) => n.startsWith('.importers-cache.json.'))!;
    const early = await readFile(join(dataDir, temp));
    expect(early.length).toBeGreaterThan(2 * 1024 * 1024);
    expect(early.subarray(FILE_MAGIC.length + KEY_ID_CHARS, FILE_MAGIC.length + KEY_ID_CHARS + STREAM_MARK.length).equals(STREAM_MARK)).toBe(true);
    expect(early.includes(Buffer.from('secret title'))).toBe(false);
    await writer.commit();
    const sealed = await readFile(file);
    expect(sealed.includes(Buffer.from('secret title'))).toBe(false);
    expect(sealed.length).toBeGreaterThan(STREAM_HEADER_BYTES + JSON.stringify(cache).length);
    forgetScanCacheMemo();
    expect(await loadScanCache(file)).toEqual(JSON.parse(JSON.stringify(cache)));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('writes each megabyte\'s sealed pieces in one call, not one call a piece', async () => {
    const file = join(dataDir, 'importers-cache.json');
    const writer = await openScanCacheWriter(file);
    // The writer's FileHandle class, found through a handle of our own (node:fs/promises does not export it).
    const probe = await open(join(dataDir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { write: (...a: unknown[]) => unknown; writev: (...a: unknown[]) => unknown };
    await probe.close();
    const write = vi.spyOn(proto, 'write');
    const writev = vi.spyOn(proto, 'writev');
    let calls: number;
    try {
      for (const [path, s] of Object.entries(cacheOf(8_000).entries)) await writer.add(path, s);
      await writer.commit();
      calls = write.mock.calls.length + writev.mock.calls.length;
    } finally {
      write.mockRestore();
      writev.mockRestore();
    }
    const megabytes = Math.ceil((await stat(file)).size / (1024 * 1024));
    // Before: one write per 64 KB piece (16 a megabyte).
    // At least one call a megabyte: a spy that stopped seeing the writes would count none.
    expect(calls).toBeGreaterThanOrEqual(megabytes);
    expect(calls).toBeLessThanOrEqual(megabytes + 2);
    forgetScanCacheMemo();
    expect(Object.keys((await loadScanCache(file)).entries).length).toBe(8_000);
  });

  it('loads a cache sealed whole (the layout before it streamed)', async () => {
    const file = join(dataDir, 'importers-cache.json');
    const cache = cacheOf(50);
    await writeFile(file, cipherOf(storeFsFor(file))!.sealFile(file, Buffer.from(JSON.stringify(cache))), { mode: 0o600 });
    forgetScanCacheMemo();
    expect(await loadScanCache(file)).toEqual(JSON.parse(JSON.stringify(cache)));
  });

  it('is an empty cache when a byte of it was changed, cut or when it was moved from another name', async () => {
    const file = join(dataDir, 'importers-cache.json');
    const writer = await openScanCacheWriter(file);
    for (const [path, s] of Object.entries(cacheOf(500).entries)) await writer.add(path, s);
    await writer.commit();
    const good = await readFile(file);
    const flipped = Buffer.from(good);
    flipped[good.length - 40]! ^= 1;
    for (const bad of [flipped, good.subarray(0, good.length - 1), good.subarray(0, STREAM_HEADER_BYTES + 1000)]) {
      await writeFile(file, bad);
      forgetScanCacheMemo();
      expect(await loadScanCache(file)).toEqual(emptyCache());
    }
    await writeFile(join(dataDir, 'other-cache.json'), good);
    forgetScanCacheMemo();
    expect(await loadScanCache(join(dataDir, 'other-cache.json'))).toEqual(emptyCache());
  });
});
