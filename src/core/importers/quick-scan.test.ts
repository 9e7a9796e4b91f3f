import { appendFile, mkdtemp, readdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { candidateIndexFileFor, markCandidateIndexVerified, readCandidateIndex } from './candidate-index.js';
import { FULL_VERIFY_MAX_AGE_MS, QUICK_VERIFY_NEWEST } from './limits.js';
import { newestEntries } from './quick-scan.js';
import { nodeImportReader, type ImportReader } from './reader.js';
import { forgetScanCacheMemo } from './scan-cache.js';
import { scanCandidateIndex } from './scan.js';
import { claude, claudeLogPath, codex, codexLogPath, writeLog } from './test-fixtures/build-logs.js';

let home: string;
let env: NodeJS.ProcessEnv;
let cacheFile: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'baton-quick-'));
  env = { HOME: home };
  cacheFile = join(home, 'baton-data', 'importers-cache.json');
});
afterEach(async () => {
  forgetScanCacheMemo();
  await rm(home, { recursive: true, force: true });
});

const BASE_S = Math.floor(Date.now() / 1000) - 24 * 3600;

/** n Claude sessions over 3 projects plus 2 Codex rollouts, file i modified at BASE_S + i s (file 0 the oldest). */
async function writeSessions(n: number): Promise<string[]> {
  const paths: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = `cccccccc-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const cwd = `/home/dev/q${i % 3}`;
    const path = await writeLog(claudeLogPath(home, cwd, id), [claude.user({ uuid: `${id}-u`, cwd, sessionId: id }, `prompt ${i}`), claude.assistant({ uuid: `${id}-a`, parentUuid: `${id}-u`, cwd, sessionId: id }, `${id}-m`, claude.text('ok'))]);
    await utimes(path, BASE_S + i, BASE_S + i);
    paths.push(path);
  }
  for (let k = 0; k < 2; k++) {
    const id = `019a0000-aaaa-7bbb-8ccc-${String(k).padStart(12, '0')}`;
    const path = await writeLog(codexLogPath(join(home, '.codex'), id), [codex.meta(id, '/home/dev/cx'), codex.turnContext(), codex.message('user', 'codex prompt'), codex.message('assistant', 'ok')]);
    await utimes(path, BASE_S - 10 - k, BASE_S - 10 - k);
    paths.push(path);
  }
  await ageFolders();
  return paths;
}

/** Folders stamped an hour ago: older than FOLDER_MTIME_RACY_MS, so a scan may trust them. */
async function ageFolders(): Promise<void> {
  const past = Date.now() / 1000 - 3600;
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) if (e.isDirectory()) await walk(join(dir, e.name));
    await utimes(dir, past, past).catch(() => undefined);
  };
  await walk(join(home, '.claude'));
  await walk(join(home, '.codex'));
}

/** The node reader, counting every path it stats and every file it opens. */
function countingStats(): { reader: ImportReader; stats: string[]; opens: string[] } {
  const stats: string[] = [];
  const opens: string[] = [];
  const reader: ImportReader = {
    readdir: (d) => nodeImportReader.readdir(d),
    realpath: (p) => nodeImportReader.realpath!(p),
    stat: (p) => (stats.push(p), nodeImportReader.stat(p)),
    statMany: (ps) => (stats.push(...ps), nodeImportReader.statMany!(ps)),
    open: (p) => (opens.push(p), nodeImportReader.open(p)),
  };
  return { reader, stats, opens };
}

/** As if the last full scan confirmed the index `ms` ago. */
async function ageIndex(ms: number): Promise<void> {
  await markCandidateIndexVerified(candidateIndexFileFor(cacheFile), Date.now() - ms);
}

describe('quick warm scan (no host)', () => {
  it(`stats folders and the newest ${QUICK_VERIFY_NEWEST} files only, lists the same, and reads nothing`, async () => {
    await writeSessions(QUICK_VERIFY_NEWEST + 40);
    const full = await scanCandidateIndex({ env, cacheFile });
    expect(full.stats.files).toBe(QUICK_VERIFY_NEWEST + 42);
    const { reader, stats, opens } = countingStats();
    const quick = await scanCandidateIndex({ env, cacheFile, reader });
    expect(opens).toEqual([]);
    const fileStats = stats.filter((p) => p.endsWith('.jsonl'));
    expect(fileStats.length).toBe(QUICK_VERIFY_NEWEST);
    expect(stats.length - fileStats.length).toBeLessThan(12); // the folders
    expect(quick.entries.map((e) => e.rowText()).sort()).toEqual(full.entries.map((e) => e.rowText()).sort());
    expect(quick.stats).toMatchObject({ files: full.stats.files, parsed: 0, cached: full.stats.files, skipped: full.stats.skipped });
  });

  it('sees a new session file (its folder changed) and a grown newest one at once', async () => {
    const paths = await writeSessions(30);
    await scanCandidateIndex({ env, cacheFile });
    const newPath = await writeLog(claudeLogPath(home, '/home/dev/q1', 'dddddddd-0000-4000-8000-000000000001'), [claude.user({ uuid: 'n-u', cwd: '/home/dev/q1', sessionId: 'n' }, 'brand new')]);
    const seen = await scanCandidateIndex({ env, cacheFile });
    expect(seen.entries.map((e) => e.path)).toContain(newPath);

    await appendFile(paths[29]!, JSON.stringify(claude.user({ uuid: 'late', cwd: '/home/dev/q2', sessionId: 'x' }, 'later')) + '\n');
    const grown = await scanCandidateIndex({ env, cacheFile });
    expect(grown.stats.parsed).toBe(1);
    expect(grown.entries.find((e) => e.path === paths[29])!.row().messageCount).toBe(3);
  });

  it(`may miss an older session that grew, for at most FULL_VERIFY_MAX_AGE_MS (${FULL_VERIFY_MAX_AGE_MS} ms)`, async () => {
    const paths = await writeSessions(QUICK_VERIFY_NEWEST + 10);
    await scanCandidateIndex({ env, cacheFile });
    await appendFile(paths[0]!, JSON.stringify(claude.user({ uuid: 'late', cwd: '/home/dev/q0', sessionId: 'x' }, 'later')) + '\n');
    const stale = await scanCandidateIndex({ env, cacheFile });
    expect(stale.entries.find((e) => e.path === paths[0])!.row().messageCount).toBe(2); // the documented miss
    await ageIndex(FULL_VERIFY_MAX_AGE_MS + 1_000);
    const verified = await scanCandidateIndex({ env, cacheFile });
    expect(verified.stats.parsed).toBe(1);
    expect(verified.entries.find((e) => e.path === paths[0])!.row().messageCount).toBe(3);
    // The full scan confirmed the index: the next listing is quick again.
    const { reader, opens } = countingStats();
    await scanCandidateIndex({ env, cacheFile, reader });
    expect(opens).toEqual([]);
    expect((await readCandidateIndex(candidateIndexFileFor(cacheFile)))!.verifiedAt).toBeGreaterThan(Date.now() - 10_000);
  });

  it('declines (full scan) for a removed file, a folder changed too recently, a folder with links, an empty file and an index written without folders', async () => {
    const paths = await writeSessions(20);
    await scanCandidateIndex({ env, cacheFile });
    const fullScan = async () => {
      const { reader, stats } = countingStats();
      const r = await scanCandidateIndex({ env, cacheFile, reader });
      return { r, fileStats: stats.filter((p) => p.endsWith('.jsonl')).length };
    };
    await rm(paths[5]!);
    let { r, fileStats } = await fullScan();
    expect(r.entries.map((e) => e.path)).not.toContain(paths[5]);
    expect(fileStats).toBe(21); // every file, by a full scan
    // The removal stamped the folder now (racy): the index records it untrusted, so the next one is full too.
    ({ fileStats } = await fullScan());
    expect(fileStats).toBe(21);
    await ageFolders();
    await fullScan(); // records the aged mtimes
    ({ fileStats } = await fullScan());
    expect(fileStats).toBe(21); // fewer than QUICK_VERIFY_NEWEST files: all are "newest"

    const project = join(home, '.claude', 'projects');
    const [dir] = await readdir(project);
    await symlink(paths[1]!, join(project, dir!, 'eeeeeeee-0000-4000-8000-000000000001.jsonl'));
    await ageFolders();
    await fullScan();
    const index = (await readCandidateIndex(candidateIndexFileFor(cacheFile)))!;
    expect(index.meta.folderMtimes).toContain(0); // the folder with a link is never trusted

    await rm(join(project, dir!, 'eeeeeeee-0000-4000-8000-000000000001.jsonl'));
    await writeFile(join(project, dir!, 'ffffffff-0000-4000-8000-000000000001.jsonl'), '');
    await ageFolders();
    await fullScan();
    expect((await readCandidateIndex(candidateIndexFileFor(cacheFile)))!.meta.unindexed).toBe(1);
  });
});

describe('an index written too close to its folders\' last change', () => {
  it('is stamped again by the full scan (same file, same bytes), after which a quick scan trusts it', async () => {
    await writeSessions(12);
    await scanCandidateIndex({ env, cacheFile });
    const indexFile = candidateIndexFileFor(cacheFile);
    // As if written half a second after the folders (aged an hour ago) changed: racy, so not trusted.
    const folderMtime = (await stat(join(home, '.claude', 'projects'))).mtimeMs;
    await utimes(indexFile, (folderMtime + 500) / 1000, (folderMtime + 500) / 1000);
    const [before, bytes] = await Promise.all([stat(indexFile), readFile(indexFile)]);
    const full = countingStats();
    await scanCandidateIndex({ env, cacheFile, reader: full.reader });
    expect(full.stats.filter((p) => p.endsWith('.jsonl')).length).toBe(14); // every file: the full scan
    const after = await stat(indexFile);
    expect(after.ino).toBe(before.ino);
    expect(await readFile(indexFile)).toEqual(bytes);
    expect(after.mtimeMs).toBeGreaterThan(Date.now() - 10_000);
    const listed: string[] = [];
    const quick = countingStats();
    await scanCandidateIndex({ env, cacheFile, reader: { ...quick.reader, readdir: (d) => (listed.push(d), nodeImportReader.readdir(d)) } });
    expect(listed).toEqual([]); // a full scan lists every folder; the quick one stats them
  });
});

describe('newestEntries', () => {
  it('returns the n latest by mtime, ties at the cut included, for 500 shuffled entries', () => {
    const entries = Array.from({ length: 500 }, (_, i) => ({ mtimeMs: (i * 7919) % 500, path: String(i) })) as unknown as Parameters<typeof newestEntries>[0];
    const top = newestEntries(entries, 50);
    expect(top.map((e) => e.mtimeMs).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => 450 + i));
    const ties = newestEntries([...entries, ...entries], 50);
    expect(ties.length).toBe(50);
    expect(newestEntries(entries.slice(0, 10), 50)).toHaveLength(10);
  });
});
