import { lstat, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { RepositoryLocation } from './capture.js';
import type { GitResult } from './git.js';
import { runGitBatch, type GitCall } from './git-batch.js';
import type { GitSpawner } from './git-spawner.js';
import { listAndPatchRun, type ListedPatch, type PatchOptions } from './patch.js';
import type { StatusReport } from './status.js';
import { copyIndexKeepingMtime } from './temp-index.js';

/**
 * A host's capture of a dirty tree, one round of git sooner (issue 20, `baton handoff` of 150
 * messages): HEAD against the work tree (work-tree-diff.ts) is started beside the first round
 * (where the repository is, its status) instead of after it, on a copy of the index that round
 * would have named. A dirty tree's capture then waits for one round of git, not two; a clean
 * tree's pays for two gits that ran for nothing, on the host's shell (no fork of the host).
 *
 * The diff is taken only when it is the one the second round would have run, which the first
 * round then shows: the repository is the plain one guessed from the disk (a `.git` directory
 * beside the work tree, its index at `.git/index`; git's own lookup agrees, and no GIT_* variable
 * reaches either, gitEnv()); HEAD, read from the disk before the diff started and again once both
 * rounds ended, is the commit status names; the person's index was not rewritten from before the
 * first round to its end (so the copy is of the index status read); and the diff ended cleanly
 * (code 0, nothing on stderr). The caller still asks workTreeDiffCovers of the first round's
 * answers. Anything else: the second round runs as before, and this diff's answer is dropped.
 */

/** A ref name as HEAD may name it (`ref: refs/heads/main`): a loose ref's file or a packed-refs line. */
const SYMBOLIC_REF = /^ref: (refs\/[^\0\n]+)\n?$/;
const OBJECT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

interface Guess {
  root: string;
  gitDir: string;
  indexPath: string;
}

/** The plain repository around `dir` as the disk shows it: the nearest `.git` that is a directory. Null for anything else (a worktree's or submodule's `.git` file, a symlink, none). */
export async function guessRepository(dir: string): Promise<Guess | null> {
  for (let at = dir; ; at = dirname(at)) {
    const found = await lstat(join(at, '.git')).catch(() => null);
    if (found) return found.isDirectory() ? { root: at, gitDir: join(at, '.git'), indexPath: join(at, '.git', 'index') } : null;
    if (dirname(at) === at) return null;
  }
}

/**
 * The commit HEAD names, read from the disk: a detached HEAD's id, or its branch's loose ref or
 * packed-refs line. Null for anything this does not read (a ref that names a ref, reftable, an
 * unborn branch): the early diff is then not taken.
 */
export async function readHeadCommit(gitDir: string): Promise<string | null> {
  const head = await readFile(join(gitDir, 'HEAD'), 'latin1').catch(() => null);
  if (head === null) return null;
  const id = head.trim();
  if (OBJECT_ID.test(id)) return id;
  const ref = SYMBOLIC_REF.exec(head)?.[1];
  if (!ref || ref.split('/').some((part) => part === '..' || part === '.' || part === '')) return null;
  const loose = await readFile(join(gitDir, ref), 'latin1').catch(() => null);
  if (loose !== null) return OBJECT_ID.test(loose.trim()) ? loose.trim() : null;
  const packed = await readFile(join(gitDir, 'packed-refs'), 'latin1').catch(() => null);
  for (const line of packed?.split('\n') ?? []) {
    const [oid, name] = line.split(' ');
    if (name === ref && oid && OBJECT_ID.test(oid)) return oid;
  }
  return null;
}

/** What identifies one version of the index file: a rewrite (in place or by rename) changes one of them, and a ctime never goes back. */
async function indexVersion(path: string): Promise<string | null> {
  const s = await stat(path, { bigint: true }).catch(() => null);
  return s && `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
}

export interface EarlyDiff {
  /** The diff's answer when the first round (its location and status) shows it is the one the second round would have run; null otherwise. */
  takeIf(located: RepositoryLocation, status: StatusReport): Promise<ListedPatch | null>;
}

/**
 * Starts HEAD against the work tree around `dir` on the host's shell, or null where no plain
 * repository is guessed. Awaited before the first round starts (a stat or two), so the index
 * version it notes is at least as old as the one status reads.
 */
export async function startEarlyDiff(dir: string, spawner: GitSpawner, options: Omit<PatchOptions, 'against'>): Promise<EarlyDiff | null> {
  const guess = await guessRepository(dir);
  const indexBefore = guess && (await indexVersion(guess.indexPath));
  if (!guess || !indexBefore) return null;
  // 'HEAD', not an id: the id status will name is not known yet; HEAD read before and after says it is that commit.
  const run = listAndPatchRun(guess.root, 'HEAD', { ...options, against: 'work-tree' });
  const ran = diffOnIndexCopy(guess, run.calls, spawner);
  ran.catch(() => undefined); // a diff not taken is never awaited
  return {
    async takeIf(located, status) {
      if (located.root !== guess.root || located.gitDir !== guess.gitDir || located.commonDir !== guess.gitDir || located.indexPath !== guess.indexPath) return null;
      const done = await ran.catch(() => null);
      if (!done || status.oid === null || done.headBefore !== status.oid) return null;
      // Read once both rounds have ended: HEAD did not move under either, and the index status read is the one copied.
      if ((await readHeadCommit(guess.gitDir)) !== done.headBefore || (await indexVersion(guess.indexPath)) !== indexBefore) return null;
      if (done.results.some((r) => r.code !== 0 || r.stderr !== '')) return null;
      return run.finish(done.results);
    },
  };
}

/** HEAD as the disk says before the diff starts, and the diff's results on a copy of the index (its directory removed once they are in); null where HEAD is not read. */
async function diffOnIndexCopy(guess: Guess, calls: GitCall[], spawner: GitSpawner): Promise<{ headBefore: string; results: GitResult[] } | null> {
  const headBefore = await readHeadCommit(guess.gitDir);
  if (headBefore === null) return null;
  const copyDir = await mkdtemp(join(tmpdir(), 'baton-index-'));
  try {
    const env = { GIT_INDEX_FILE: join(copyDir, 'index') };
    await copyIndexKeepingMtime(guess.indexPath, env.GIT_INDEX_FILE);
    return { headBefore, results: await runGitBatch(guess.root, calls, { env, spawner }) };
  } finally {
    await rm(copyDir, { recursive: true, force: true }).catch(() => undefined);
  }
}
