import { appendFile, mkdir, mkdtemp, readdir, rename, rm, truncate, utimes, writeFile, readFile } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidateIndexFileFor } from '../../core/importers/candidate-index.js';
import { countItems, groupItems, limitGroups, type ListFilter, type ListGroup } from '../../core/importers/candidate-list.js';
import { writeListJson } from '../../core/importers/list-json.js';
import { forgetScanCacheMemo } from '../../core/importers/scan-cache.js';
import { scanCandidateIndex } from '../../core/importers/scan.js';
import { claude, claudeLogPath, codex, codexLogPath, writeLog } from '../../core/importers/test-fixtures/build-logs.js';
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

const HOUR_AGO_S = () => Date.now() / 1000 - 3600;

async function ageFolders(home: string): Promise<void> {
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) if (e.isDirectory()) await walk(join(dir, e.name));
    await utimes(dir, HOUR_AGO_S(), HOUR_AGO_S()).catch(() => undefined);
  };
  await walk(join(home, '.claude'));
  await walk(join(home, '.codex'));
}

async function render(groups: readonly ListGroup[]): Promise<string> {
  const chunks: Buffer[] = [];
  await writeListJson({ write: (c) => (chunks.push(Buffer.from(c)), true), once: () => undefined }, { version: 1 }, groups, { total: countItems(groups) });
  return Buffer.concat(chunks).toString('utf8');
}

/** One corpus: a fake HOME with Claude Code and Codex logs, and the data dir whose index is under test. */
class Corpus {
  readonly files: string[] = [];
  private n = 0;
  constructor(
    readonly home: string,
    readonly random: () => number,
  ) {}
  get env(): NodeJS.ProcessEnv {
    return { HOME: this.home };
  }
  get cacheFile(): string {
    return join(this.home, 'data', 'importers-cache.json');
  }
  async add(): Promise<void> {
    const i = this.n++;
    const r = this.random();
    const cwd = ['/home/dev/a', '/home/dev/a/', '/home/dev/b', '/srv/ünï'][Math.floor(this.random() * 4)]!;
    const at = Date.UTC(2026, 10, 1) + Math.floor(this.random() * 5) * 60_000;
    let path: string;
    if (r < 0.55) {
      const id = `cccccccc-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const lines: unknown[] = [claude.user({ uuid: `${id}-u`, cwd, sessionId: id, timestamp: new Date(at).toISOString() }, `prompt ${i}`)];
      if (this.random() < 0.8) lines.push(claude.assistant({ uuid: `${id}-a`, parentUuid: `${id}-u`, cwd, sessionId: id, timestamp: new Date(at + 1000).toISOString() }, `${id}-m`, claude.text('ok')));
      if (this.random() < 0.1) lines.push('{"type":"user","torn');
      path = await writeLog(claudeLogPath(this.home, cwd, id), this.random() < 0.08 ? [claude.summary('leaf')] : lines);
    } else {
      const id = `019a0000-aaaa-7bbb-8ccc-${String(i).padStart(12, '0')}`;
      path = await writeLog(codexLogPath(join(this.home, '.codex'), id, ['2026/11/01', '2026/11/02'][i % 2]), [codex.meta(id, cwd), codex.turnContext(), codex.message('user', `codex ${i}`), codex.message('assistant', 'ok')]);
    }
    await utimes(path, at / 1000, at / 1000);
    this.files.push(path);
  }
  pick(): string | undefined {
    return this.files[Math.floor(this.random() * this.files.length)];
  }
  /** One change a person's tools make between two listings. */
  async mutate(): Promise<string> {
    const r = this.random();
    const path = this.pick();
    if (r < 0.3 || !path) return (await this.add(), 'added');
    if (r < 0.5) {
      await appendFile(path, JSON.stringify(claude.user({ uuid: `late-${this.n++}`, cwd: '/home/dev/b' }, 'later')) + '\n');
      return 'grown';
    }
    if (r < 0.6) {
      await rm(path);
      this.files.splice(this.files.indexOf(path), 1);
      return 'deleted';
    }
    if (r < 0.7) {
      const to = path.replace(/(\d{12})\.jsonl$/, (_, d: string) => `${String(Number(d) + 500_000).padStart(12, '0')}.jsonl`);
      await rename(path, to);
      this.files[this.files.indexOf(path)] = to;
      return 'renamed';
    }
    if (r < 0.8) {
      const past = HOUR_AGO_S() - this.random() * 1e6;
      await utimes(path, past, past);
      return 'mtime in the past';
    }
    if (r < 0.85) {
      await truncate(path, 0);
      return 'emptied';
    }
    const index = candidateIndexFileFor(this.cacheFile);
    const bytes = await readFile(index).catch(() => null);
    if (!bytes) return 'no index';
    if (r < 0.93) {
      const at = Math.floor(this.random() * bytes.length);
      bytes[at] = bytes[at]! ^ 0x41;
      await writeFile(index, bytes);
      return 'index damaged';
    }
    bytes.write('BTNCIDX1', 0, 'latin1'); // an index of the previous format
    await writeFile(index, bytes);
    return 'index of an older version';
  }
}

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
  const trusted = await readTrustedIndex(c.cacheFile);
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
        if (await checkFast(c, filter, limit, `seed ${seed} step ${step}: confirmed index`)) answered += 1;
        // Something changes behind the index's back: the fast path answers the truth or declines.
        const change = await c.mutate();
        seen.add(change);
        if (random() < 0.5) await ageFolders(c.home);
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
