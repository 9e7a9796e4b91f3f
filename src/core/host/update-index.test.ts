import { appendFile, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CANDIDATE_INDEX_VERSION, candidateIndexFileFor, readCandidateIndex, type IndexEntry } from '../importers/candidate-index.js';
import { readLayout } from '../importers/candidate-index-layout.js';
import { persistIndex, scanCandidateIndexFull } from '../importers/scan.js';
import { claude, claudeLogPath, codex, codexLogPath, writeLog } from '../importers/test-fixtures/build-logs.js';
import { seededRandom } from '../test-support/seeded-random.js';
import { checkIndex } from './confirm-index.js';
import { updateIndex } from './update-index.js';

/**
 * Real folders and files: after any change made while no host ran, the index the host's
 * confirm writes (in place, or by the full scan it falls back to) lists byte for byte what a
 * cold full scan of the same files lists.
 */
let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-upd-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const id = (i: number) => `eeeeeeee-0000-4000-8000-${String(i).padStart(12, '0')}`;
const HOUR_AGO = Date.now() / 1000 - 3600;

function sessionLines(i: number, prompt: string): { codex: boolean; lines: unknown[] } {
  if (i % 3 === 0) return { codex: true, lines: [codex.meta(id(i)), codex.message('user', prompt), codex.message('assistant', 'ok')] };
  const cwd = `/home/dev/p${i % 4}`;
  return { codex: false, lines: [claude.user({ uuid: `${id(i)}-u`, cwd, sessionId: id(i) }, prompt), claude.assistant({ uuid: `${id(i)}-a`, parentUuid: `${id(i)}-u`, cwd, sessionId: id(i) }, `${id(i)}-m`, claude.text('ok'))] };
}

async function writeSession(home: string, i: number, prompt = `prompt ${i}`): Promise<string> {
  const s = sessionLines(i, prompt);
  if (s.codex) return writeLog(codexLogPath(join(home, '.codex'), id(i), `2026/11/0${1 + (i % 4)}`), s.lines);
  return writeLog(claudeLogPath(home, `/home/dev/p${i % 4}`, id(i)), s.lines);
}

/** Folders stamped an hour ago: an index written after trusts them (not within FOLDER_MTIME_RACY_MS). */
async function ageFolders(home: string): Promise<void> {
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) if (e.isDirectory()) await walk(join(dir, e.name));
    await utimes(dir, HOUR_AGO, HOUR_AGO).catch(() => undefined);
  };
  await walk(join(home, '.claude'));
  await walk(join(home, '.codex'));
}

/** What a listing prints from an index, and what a later scan relies on: compared whole. */
/** A home of `count` sessions in aged folders, scanned once into a fresh index (as a host leaves it). */
async function scannedHome(count: number): Promise<{ home: string; env: NodeJS.ProcessEnv; cacheFile: string }> {
  const home = join(root, 'h');
  const env = { HOME: home, CODEX_HOME: join(home, '.codex') };
  const cacheFile = join(root, 'd', 'importers-cache.json');
  for (let i = 0; i < count; i++) await writeSession(home, i);
  await ageFolders(home);
  await scanCandidateIndexFull({ env, cacheFile });
  return { home, env, cacheFile };
}

async function listingOf(cacheFile: string) {
  const file = candidateIndexFileFor(cacheFile);
  const index = (await readCandidateIndex(file))!;
  const layout = readLayout(await readFile(file), CANDIDATE_INDEX_VERSION)!;
  const fields = (e: IndexEntry) => [e.path, e.source, e.size, e.mtimeMs, e.skip, e.at, e.cwd, e.id, e.note, e.totals];
  return {
    meta: index.meta,
    candidates: index.entries.filter((e) => e.skip === null).map((e) => [...fields(e), e.rowText(), JSON.stringify(e.candidate())]),
    skipped: index.entries.filter((e) => e.skip !== null).map((e) => JSON.stringify(fields(e))).sort(),
    groups: layout.head.listing.groups,
    notes: layout.head.listing.notes,
    block: layout.block(0, layout.head.listing.blockBytes).toString('utf8'),
  };
}

/** The host's confirm after a quick start (agent-candidates.ts confirmStart), without the watches. */
async function confirmAsHost(env: NodeJS.ProcessEnv, cacheFile: string, maxChanged?: number): Promise<'unchanged' | 'incremental' | 'rescan'> {
  const index = await readCandidateIndex(candidateIndexFileFor(cacheFile), { resident: true });
  if (index) {
    const byPath = new Map(index.entries.map((e) => [e.path, e]));
    const check = await checkIndex(index, (p) => byPath.get(p), { env, ...(maxChanged ? { maxChanged } : {}) });
    if (check.kind === 'unchanged') return 'unchanged';
    if (check.kind === 'changed' && (await updateIndex(byPath, new Set(), check, { env, cacheFile }))) return 'incremental';
  }
  await scanCandidateIndexFull({ env, cacheFile, loaded: index });
  return 'rescan';
}

const KINDS = ['add', 'grow', 'rewrite', 'remove', 'rename', 'empty', 'touch', 'damage-cache', 'damage-index', 'persisted'] as const;

describe('the host updates its index in place after changes made while it was down', () => {
  it('over 240 seeded corpora (added, grown, rewritten, removed, renamed, emptied, touched; cache or index damaged; index persisted without meta; more changes than the limit): lists what a cold scan lists', async () => {
    const outcomes = new Map<string, number>();
    const kindsSeen = new Set<string>();
    for (let seed = 1; seed <= 240; seed++) {
      const random = seededRandom(seed * 7919);
      const home = join(root, `h${seed}`);
      const env = { HOME: home, CODEX_HOME: join(home, '.codex') };
      const cacheFile = join(root, `d${seed}`, 'importers-cache.json');
      const paths: string[] = [];
      let next = 0;
      const n = 3 + Math.floor(random() * 6);
      for (; next < n; next++) paths.push(await writeSession(home, next));
      await ageFolders(home);
      await scanCandidateIndexFull({ env, cacheFile });
      // Two rounds: the second confirms an index the first wrote in place.
      for (let round = 0; round < 2; round++) {
        const changes = 1 + Math.floor(random() * 4);
        const done: string[] = [];
        for (let c = 0; c < changes && paths.length > 0; c++) {
          const kind = KINDS[Math.floor(random() * KINDS.length)]!;
          done.push(kind);
          kindsSeen.add(kind);
          const k = Math.floor(random() * paths.length);
          const path = paths[k]!;
          if (kind === 'add') paths.push(await writeSession(home, next++));
          else if (kind === 'grow') await appendFile(path, `${JSON.stringify(claude.user({ uuid: `late-${seed}-${c}`, cwd: '/home/dev/p1', sessionId: 'x' }, `more ${c}`))}\n`);
          else if (kind === 'rewrite') {
            const i = Number(/(\d{12})/.exec(path)![1]);
            await writeFile(path, sessionLines(i, `rewritten ${seed}-${round}-${c}`).lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
          } else if (kind === 'remove') {
            await rm(path);
            paths.splice(k, 1);
          } else if (kind === 'rename') {
            const to = join(dirname(path), path.includes('rollout-') ? `rollout-2026-11-01T10-00-00-${id(next++)}.jsonl` : `${id(next++)}.jsonl`);
            await rename(path, to);
            paths[k] = to;
          } else if (kind === 'empty') await writeFile(path, '');
          else if (kind === 'touch') await utimes(path, HOUR_AGO + seed, HOUR_AGO + seed);
          else if (kind === 'damage-cache') await writeFile(cacheFile, '{"version":');
          else if (kind === 'damage-index') await writeFile(candidateIndexFileFor(cacheFile), 'damaged');
          // Rewritten as a host persists its watched changes: the entries (none when damaged) without the folders' view.
          else await persistIndex(cacheFile, (await readCandidateIndex(candidateIndexFileFor(cacheFile)))?.entries ?? []);
        }
        await ageFolders(home);
        // A limit of 1 now and then: more changes than that fall back to the full scan.
        const maxChanged = random() < 0.2 ? 1 : undefined;
        const how = await confirmAsHost(env, cacheFile, maxChanged);
        outcomes.set(how, (outcomes.get(how) ?? 0) + 1);
        const coldFile = join(root, `cold${seed}-${round}`, 'importers-cache.json');
        await scanCandidateIndexFull({ env, cacheFile: coldFile });
        expect({ seed, round, done, how, listing: await listingOf(cacheFile) }).toEqual({ seed, round, done, how, listing: await listingOf(coldFile) });
        await rm(dirname(coldFile), { recursive: true, force: true });
      }
      await rm(home, { recursive: true, force: true });
      await rm(dirname(cacheFile), { recursive: true, force: true });
    }
    expect([...kindsSeen].sort()).toEqual([...KINDS].sort());
    // Every path taken, the in-place update most often.
    expect(outcomes.get('incremental')).toBeGreaterThan(200);
    expect(outcomes.get('rescan')).toBeGreaterThan(20);
  }, 240_000);

  it('writes the index in place without touching the digest cache, and the next confirm trusts it', async () => {
    const { home, env, cacheFile } = await scannedHome(6);
    const cacheBefore = await readFile(cacheFile);
    const cacheMtime = (await stat(cacheFile)).mtimeMs;
    await writeSession(home, 50);
    await ageFolders(home);
    expect(await confirmAsHost(env, cacheFile)).toBe('incremental');
    expect((await stat(cacheFile)).mtimeMs).toBe(cacheMtime);
    expect(await readFile(cacheFile)).toEqual(cacheBefore);
    expect((await readCandidateIndex(candidateIndexFileFor(cacheFile)))!.entries.filter((e) => e.skip === null)).toHaveLength(7);
    expect(await confirmAsHost(env, cacheFile)).toBe('unchanged');
  });

  it('changes the resident map in place once the index is written, and a failed write leaves the set and the file as they were', async () => {
    const home = join(root, 'h');
    const env = { HOME: home, CODEX_HOME: join(home, '.codex') };
    const cacheFile = join(root, 'd', 'importers-cache.json');
    const paths: string[] = [];
    for (let i = 0; i < 6; i++) paths.push(await writeSession(home, i));
    await ageFolders(home);
    await scanCandidateIndexFull({ env, cacheFile });
    const added = await writeSession(home, 50);
    await rm(paths[1]!);
    await appendFile(paths[2]!, `${JSON.stringify(claude.user({ uuid: 'late', cwd: '/home/dev/p2', sessionId: 'x' }, 'more'))}\n`);
    await ageFolders(home);
    const indexFile = candidateIndexFileFor(cacheFile);
    const index = (await readCandidateIndex(indexFile, { resident: true }))!;
    const resident = new Map(index.entries.map((e) => [e.path, e]));
    const unindexed = new Set<string>();
    const check = await checkIndex(index, (p) => resident.get(p), { env });
    if (check.kind !== 'changed') throw new Error(`expected changes, got ${check.kind}`);
    const before = [...resident];
    const indexBefore = await readFile(indexFile);

    // The rename over the index fails (a folder with a file in it stands where the index goes).
    const aside = `${indexFile}.aside`;
    await rename(indexFile, aside);
    await mkdir(indexFile);
    await writeFile(join(indexFile, 'blocker'), '');
    await expect(updateIndex(resident, unindexed, check, { env, cacheFile })).rejects.toThrow();
    expect([...resident]).toEqual(before);
    expect(unindexed.size).toBe(0);
    await rm(indexFile, { recursive: true });
    await rename(aside, indexFile);
    expect(await readFile(indexFile)).toEqual(indexBefore);

    const update = await updateIndex(resident, unindexed, check, { env, cacheFile });
    expect(update).toMatchObject({ added: 1, updated: 1, removed: 1 });
    // The host's own map now holds what the index holds: no copy of it was made and returned.
    expect(resident.has(added)).toBe(true);
    expect(resident.has(paths[1]!)).toBe(false);
    expect(resident.get(paths[2]!)!.size).toBe((await stat(paths[2]!)).size);
    const written = (await readCandidateIndex(indexFile))!.entries;
    expect(written.map((e) => e.path).sort()).toEqual([...resident.keys()].sort());
  });

  it('an index a host wrote from its watched changes (no folders\' view) is confirmed file by file and given the view, without the full scan', async () => {
    const { home, env, cacheFile } = await scannedHome(6);
    // As agent-candidates.ts persists watched changes: the entries alone, without meta.
    const indexFile = candidateIndexFileFor(cacheFile);
    await persistIndex(cacheFile, (await readCandidateIndex(indexFile))!.entries);
    expect((await readCandidateIndex(indexFile))!.meta.unindexed).toBe(-1);
    await writeSession(home, 50);
    await ageFolders(home);
    expect(await confirmAsHost(env, cacheFile)).toBe('incremental');
    const coldFile = join(root, 'cold', 'importers-cache.json');
    await scanCandidateIndexFull({ env, cacheFile: coldFile });
    expect(await listingOf(cacheFile)).toEqual(await listingOf(coldFile));
    expect(await confirmAsHost(env, cacheFile)).toBe('unchanged');
  });
});
