import { appendFile, mkdir, mkdtemp, rm, readFile, utimes, writeFile } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidateIndexFileFor, verifiedFileOf } from '../../core/importers/candidate-index.js';
import { FULL_VERIFY_MAX_AGE_MS, QUICK_VERIFY_NEWEST } from '../../core/importers/limits.js';
import { claude } from '../../core/importers/test-fixtures/build-logs.js';
import { countItems, groupItems, limitGroups, type ListFilter, type ListGroup } from '../../core/importers/candidate-list.js';
import { forgetScanCacheMemo } from '../../core/importers/scan-cache.js';
import { scanCandidateIndex } from '../../core/importers/scan.js';
import { ageFolders, Corpus, HOUR_AGO_S, render } from '../../core/importers/test-fixtures/generated-corpus.js';
import { listingFromIndex, readTrustedIndex } from './list-indexed.js';
import { openStore } from '../../core/store/index.js';
import { registerStoreFs, sealsFilesAt } from '../../core/store/at-rest/registry.js';
import type { KeyStore } from '../../core/store/at-rest/key-store.js';
import { seededRandom as rng } from '../../core/test-support/seeded-random.js';


let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-list-indexed-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** What a cold scan of the same files lists (a fresh cache each time). */
async function truth(c: Corpus, filter: ListFilter): Promise<ListGroup[]> {
  const fresh = join(c.home, `ref-${Math.random().toString(36).slice(2)}`, 'importers-cache.json');
  forgetScanCacheMemo();
  const scan = await scanCandidateIndex({ env: c.env, cacheFile: fresh });
  await rm(join(fresh, '..'), { recursive: true, force: true });
  return groupItems(scan.entries, filter);
}

async function checkFast(c: Corpus, filter: ListFilter, limit: number | undefined, what: string): Promise<boolean> {
  forgetScanCacheMemo();
  const trusted = await readTrustedIndex(c.cacheFile, undefined, c.env);
  const fast = trusted && listingFromIndex(trusted, [], [], { filter, limit }, 0);
  if (!fast) return false;
  const all = await truth(c, filter);
  expect(fast.total, what).toBe(countItems(all));
  expect(await render(fast.groups), what).toBe(await render(limit === undefined ? all : limitGroups(all, limit)));
  return true;
}

describe('baton list without a host, from the candidate index: the same as a full scan, or it declines', () => {
  it('over 150 generated corpora, each changed 3 times (files added, grown, deleted, renamed, emptied, mtimes in the past, index damaged or of an older version)', async () => {
    // Each listing closes the index file it read lazily (Linux: this process's open descriptors).
    const openFiles = () => readdirSync('/proc/self/fd').length;
    const filesBefore = openFiles();
    let answered = 0;
    let declinedWithChange = 0;
    const seen = new Set<string>();
    for (let seed = 1; seed <= 150; seed++) {
      const random = rng(seed);
      const c = new Corpus(join(root, `c${seed}`), random);
      await mkdir(c.home, { recursive: true });
      const n = 1 + Math.floor(random() * 14);
      for (let i = 0; i < n; i++) await c.add();
      await ageFolders(c.home);
      for (let step = 0; step < 3; step++) {
        const filter: ListFilter = random() < 0.3 ? { source: random() < 0.5 ? 'claude' : 'codex' } : random() < 0.2 ? { cwd: '/home/dev/a' } : {};
        const limit = random() < 0.3 ? Math.floor(random() * 6) : undefined;
        // A listing writes and confirms the index (full scan), then the folders age past the racy window.
        forgetScanCacheMemo();
        await scanCandidateIndex({ env: c.env, cacheFile: c.cacheFile });
        await ageFolders(c.home);
        forgetScanCacheMemo();
        await scanCandidateIndex({ env: c.env, cacheFile: c.cacheFile });
        // Every other corpus's confirmation is past FULL_VERIFY_MAX_AGE_MS: the listing checks every file first.
        if (seed % 2 === 0) await confirmLongAgo(c);
        if (await checkFast(c, filter, limit, `seed ${seed} step ${step}: confirmed index`)) answered += 1;
        // Something changes behind the index's back: the fast path answers the truth or declines.
        const change = await c.mutate();
        seen.add(change);
        if (random() < 0.5) await ageFolders(c.home);
        if (seed % 2 === 0) await confirmLongAgo(c);
        if (!(await checkFast(c, filter, limit, `seed ${seed} step ${step}: after ${change}`))) declinedWithChange += 1;
      }
    }
    expect(openFiles()).toBeLessThan(filesBefore + 10);
    // Most confirmed indexes were answered from (an emptied file is not indexed: those decline).
    expect(answered).toBeGreaterThan(300);
    expect(declinedWithChange).toBeGreaterThan(200);
    expect([...seen].sort()).toEqual(['added', 'deleted', 'emptied', 'grown', 'index damaged', 'index of an older version', 'mtime in the past', 'renamed']);
  }, 300_000);
});

/** The index's last confirmation made older than FULL_VERIFY_MAX_AGE_MS (a listing a while after the last one). */
async function confirmLongAgo(c: Corpus): Promise<string> {
  const due = String(Date.now() - FULL_VERIFY_MAX_AGE_MS - 1_000);
  await writeFile(verifiedFileOf(candidateIndexFileFor(c.cacheFile)), due);
  return due;
}

describe('an index due its periodic full check (FULL_VERIFY_MAX_AGE_MS)', () => {
  it('is checked file by file: unchanged, it answers and is confirmed again; an old session appended to since, it declines', async () => {
    const c = new Corpus(join(root, 'due'), rng(7));
    await mkdir(c.home, { recursive: true });
    for (let i = 0; i < QUICK_VERIFY_NEWEST + 20; i++) await c.add();
    // Distinct mtimes, oldest first: the quick rules stat only the QUICK_VERIFY_NEWEST newest files.
    for (const [k, path] of c.files.entries()) await utimes(path, HOUR_AGO_S() - 10_000 + k, HOUR_AGO_S() - 10_000 + k);
    await ageFolders(c.home);
    forgetScanCacheMemo();
    await scanCandidateIndex({ env: c.env, cacheFile: c.cacheFile });
    const verified = verifiedFileOf(candidateIndexFileFor(c.cacheFile));

    const due = await confirmLongAgo(c);
    expect(await checkFast(c, {}, undefined, 'due, nothing changed')).toBe(true);
    expect(Number(await readFile(verified, 'utf8'))).toBeGreaterThan(Number(due) + FULL_VERIFY_MAX_AGE_MS);

    const dueAgain = await confirmLongAgo(c);
    await appendFile(c.files[0]!, JSON.stringify(claude.user({ uuid: 'late', cwd: '/home/dev/b' }, 'later')) + '\n');
    await utimes(c.files[0]!, HOUR_AGO_S() - 20_000, HOUR_AGO_S() - 20_000);
    // The picker's first screen trusts it as the quick scan does: it answers, unconfirmed (the grown session as indexed).
    const quick = await readTrustedIndex(c.cacheFile, undefined, c.env, 'quick');
    expect(quick && listingFromIndex(quick, [], [], { filter: {} }, 0)?.total).toBeGreaterThan(QUICK_VERIFY_NEWEST);
    expect(await readFile(verified, 'utf8')).toBe(dueAgain);
    expect(await checkFast(c, {}, undefined, 'due, the oldest session grown')).toBe(false);
  });

  it('is not trusted quickly before its first confirmation', async () => {
    const c = new Corpus(join(root, 'never-confirmed'), rng(8));
    await mkdir(c.home, { recursive: true });
    for (let i = 0; i < 3; i++) await c.add();
    await ageFolders(c.home);
    forgetScanCacheMemo();
    await scanCandidateIndex({ env: c.env, cacheFile: c.cacheFile });
    await rm(verifiedFileOf(candidateIndexFileFor(c.cacheFile)));
    expect(await readTrustedIndex(c.cacheFile, undefined, c.env, 'quick')).toBeNull();
  });
});

describe('an encrypted store\'s candidate index', () => {
  it('is sealed on disk, reads as untrusted before the store registers its key, and answers once it has', async () => {
    const c = new Corpus(join(root, 'sealed'), rng(99));
    await mkdir(c.home, { recursive: true });
    for (let i = 0; i < 8; i++) await c.add();
    await ageFolders(c.home);
    const secrets = new Map<string, Buffer>();
    const keyStore: KeyStore = { label: 'memory', read: async (a) => secrets.get(a), write: async (a, s) => void secrets.set(a, Buffer.from(s)), remove: async (a) => secrets.delete(a) };
    const dataDir = join(c.home, 'data');
    const store = await openStore(dataDir, { keyStore });
    try {
      expect(store.atRest.state).toBe('on');
      expect(sealsFilesAt(c.cacheFile)).toBe(true);
      forgetScanCacheMemo();
      await scanCandidateIndex({ env: c.env, cacheFile: c.cacheFile });
      const sealed = await readFile(candidateIndexFileFor(c.cacheFile));
      expect(sealed.toString('latin1', 0, 8)).not.toBe('BTNCIDX3');
      const trusted = await readTrustedIndex(c.cacheFile);
      expect(trusted).not.toBeNull();
      const all = await truth(c, {});
      expect(await render(listingFromIndex(trusted!, [], [], { filter: {} }, 0)!.groups)).toBe(await render(all));
      // Before the key is registered (a listing reads the index while the store opens): not served.
      registerStoreFs(dataDir, undefined);
      expect(sealsFilesAt(c.cacheFile)).toBe(false);
      expect(await readTrustedIndex(c.cacheFile)).toBeNull();
    } finally {
      await store.close();
    }
  });
});
