import { appendFile, mkdtemp, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { candidateIndexFileFor, readCandidateIndex, type IndexEntry } from '../importers/candidate-index.js';
import { scanCandidateIndexFull } from '../importers/scan.js';
import { claude, claudeLogPath, codex, codexLogPath, writeLog } from '../importers/test-fixtures/build-logs.js';
import { seededRandom } from '../test-support/seeded-random.js';
import { checkIndex } from './confirm-index.js';

/** Real folders and files: the confirm must say "unchanged" only when a full scan would change nothing. */
let home: string;
let env: NodeJS.ProcessEnv;
let cacheFile: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'baton-confirm-'));
  env = { HOME: home, CODEX_HOME: join(home, '.codex') };
  cacheFile = join(home, 'data', 'importers-cache.json');
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const id = (i: number) => `dddddddd-0000-4000-8000-${String(i).padStart(12, '0')}`;
const HOUR_AGO = Date.now() / 1000 - 3600;

async function writeSession(i: number): Promise<string> {
  if (i % 3 === 0) return writeLog(codexLogPath(join(home, '.codex'), id(i), `2026/11/0${1 + (i % 4)}`), [codex.meta(id(i)), codex.message('user', `codex prompt ${i}`), codex.message('assistant', 'ok')]);
  const cwd = `/home/dev/p${i % 4}`;
  return writeLog(claudeLogPath(home, cwd, id(i)), [claude.user({ uuid: `${id(i)}-u`, cwd, sessionId: id(i) }, `prompt ${i}`), claude.assistant({ uuid: `${id(i)}-a`, parentUuid: `${id(i)}-u`, cwd, sessionId: id(i) }, `${id(i)}-m`, claude.text('ok'))]);
}

/** Every folder under both tools' roots, deepest first. */
async function folders(): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) if (e.isDirectory()) await walk(join(dir, e.name));
    out.push(dir);
  };
  await walk(join(home, '.claude'));
  await walk(join(home, '.codex'));
  return out;
}

/** Folders stamped an hour ago: the index written after trusts them (not within FOLDER_MTIME_RACY_MS). */
async function ageFolders(): Promise<void> {
  for (const dir of await folders()) await utimes(dir, HOUR_AGO, HOUR_AGO);
}

async function confirm(): Promise<boolean> {
  const index = (await readCandidateIndex(candidateIndexFileFor(cacheFile), { resident: true }))!;
  const byPath = new Map<string, IndexEntry>(index.entries.map((e) => [e.path, e]));
  return (await checkIndex(index, (p) => byPath.get(p), { env })).kind === 'unchanged';
}

describe('the host confirms a trusted index without a full scan', () => {
  it('over 80 seeded changes (grown, touched, added, removed, renamed, emptied), folder mtimes put back: unchanged only when nothing changed', async () => {
    const paths: string[] = [];
    for (let i = 0; i < 36; i++) paths.push(await writeSession(i));
    await ageFolders();
    await scanCandidateIndexFull({ env, cacheFile });
    expect(await confirm()).toBe(true);
    const random = seededRandom(1515);
    let next = 100;
    const kinds = ['grow', 'touch', 'add', 'remove', 'rename', 'empty', 'none'] as const;
    const seen = new Map<string, number>();
    for (let trial = 0; trial < 80; trial++) {
      const kind = kinds[Math.floor(random() * kinds.length)]!;
      seen.set(kind, (seen.get(kind) ?? 0) + 1);
      const k = Math.floor(random() * paths.length);
      const path = paths[k]!;
      // Each folder's mtime as it was, put back after the change: only the files' own stats can tell.
      const before = new Map(await Promise.all((await folders()).map(async (d) => [d, (await stat(d)).mtime] as const)));
      if (kind === 'grow') await appendFile(path, `${JSON.stringify(claude.user({ uuid: `late-${trial}`, cwd: '/home/dev/p1', sessionId: 'x' }, 'more'))}\n`);
      else if (kind === 'touch') await utimes(path, HOUR_AGO + trial, HOUR_AGO + trial);
      else if (kind === 'add') paths.push(await writeSession(next++));
      else if (kind === 'remove') {
        await rm(path);
        paths.splice(k, 1);
      } else if (kind === 'rename') {
        const to = join(dirname(path), path.includes('rollout-') ? `rollout-2026-11-01T10-00-00-${id(next++)}.jsonl` : `${id(next++)}.jsonl`);
        await rename(path, to);
        paths[k] = to;
      } else if (kind === 'empty') await writeFile(path, '');
      for (const [dir, mtime] of before) await utimes(dir, mtime, mtime).catch(() => undefined);
      for (const dir of await folders()) if (!before.has(dir)) await utimes(dir, HOUR_AGO, HOUR_AGO);
      expect({ trial, kind, unchanged: await confirm() }).toEqual({ trial, kind, unchanged: kind === 'none' });
      // The full scan (not a quick one, which the put-back folder mtimes would fool) takes the change; aged again, the next trial starts from a trusted index.
      if (kind === 'empty') {
        await rm(path);
        paths.splice(k, 1);
      }
      await ageFolders();
      await scanCandidateIndexFull({ env, cacheFile });
      expect({ trial, kind, after: await confirm() }).toEqual({ trial, kind, after: true });
    }
    expect(seen.size).toBe(kinds.length);
  });

  it('declines an index written within FOLDER_MTIME_RACY_MS of a folder change (the full scan writes it again)', async () => {
    for (let i = 0; i < 6; i++) await writeSession(i);
    await scanCandidateIndexFull({ env, cacheFile });
    expect(await confirm()).toBe(false);
  });
});
