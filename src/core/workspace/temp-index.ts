import { rmdirSync, rmSync } from 'node:fs';
import { copyFile, mkdtemp, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkspaceWarning } from '../../shared/workspace.js';
import { gitFailed } from './errors.js';
import { runGit, type GitResult } from './git.js';
import { runGitBatch, type GitCall } from './git-batch.js';
import { BATCH_DIR_PREFIX, type GitSpawner } from './git-spawner.js';

/** git add's words for a file it could not read (exit 1 with --ignore-errors, the rest added). */
const UNREADABLE_FILE = /unable to (index|read|stat)|Permission denied/;

/** Git commands to run on the temporary index once it holds the working tree, and what their results give. */
export interface IndexWork<T> {
  calls: GitCall[];
  finish: (results: GitResult[]) => T;
}

const ADD_ARGS = ['add', '--all', '--ignore-errors'];

/**
 * A capture's copy of the index goes in a directory of its own, named like a git batch's
 * (git-spawner.ts) so that one a crashed process left behind is swept by the next host's start.
 */
export const INDEX_COPY_PREFIX = `${BATCH_DIR_PREFIX}index-`;
/** The copy's name in that directory. */
const INDEX_COPY_FILE = 'index';

/** GIT_INDEX_FILE pointing at a private copy of an index. */
export type IndexCopyEnv = { GIT_INDEX_FILE: string };

/**
 * Runs `body` on a copy of `realIndex` (copyIndexKeepingMtime) in a private directory, removed
 * when it is done (removeIndexCopy), whatever it answers or throws.
 */
export async function onIndexCopy<T>(realIndex: string, body: (env: IndexCopyEnv) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), INDEX_COPY_PREFIX));
  const env = { GIT_INDEX_FILE: join(dir, INDEX_COPY_FILE) };
  try {
    await copyIndexKeepingMtime(realIndex, env.GIT_INDEX_FILE);
    return await body(env);
  } finally {
    removeIndexCopy(dir);
  }
}

/**
 * Removes a copy of the index once its diffs were read. Its directory holds the copy alone, so
 * that is two synchronous calls, not fs.promises.rm's walk through the thread pool, where under a
 * hosted landing's fsyncs it queued behind them (~1.4 ms of every dirty capture in a host). The
 * process may exit right after the capture (the CLI), so the removal is done here, not left
 * running. Anything else in the directory (a lock a killed git left): removed in the background,
 * and a leftover is swept by the next host's start.
 */
function removeIndexCopy(dir: string): void {
  try {
    rmSync(join(dir, INDEX_COPY_FILE), { force: true });
    rmdirSync(dir);
  } catch {
    void rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * Runs `work` with a private index that holds the whole working tree (tracked changes and
 * untracked, non-ignored files), so one `git diff --cached` yields every change including new
 * files. The person's own index is never written: we copy it (keeping its stat cache, so only
 * changed files are re-hashed) and point GIT_INDEX_FILE at the copy. `git add` does write the
 * new blobs into the object database; they are unreferenced and git's gc collects them.
 */
export async function withWorkingTreeIndex<T>(
  root: string,
  realIndex: string,
  head: string | null,
  warnings: WorkspaceWarning[],
  work: () => IndexWork<T>,
  spawner?: GitSpawner,
): Promise<T> {
  return onIndexCopy(realIndex, async (env) => {
    // `add`, then the work's commands, in one child process (git-batch.ts): one fork of this
    // process, none in a host whose long-lived shell (`spawner`) runs it. Their results count only
    // when the add did; otherwise they run again below.
    const first = work();
    const [firstAdded, ...results] = await runGitBatch(root, [{ args: ADD_ARGS }, ...first.calls], { env, firstAlone: true, spawner });
    let added = firstAdded!;
    if (added.code === 0 || UNREADABLE_FILE.test(added.stderr)) {
      addWarnings(added, warnings);
      return first.finish(results);
    }
    {
      // A copied index can refer to files beside the original (split index): start from HEAD.
      await rm(env.GIT_INDEX_FILE, { force: true });
      if (head) {
        const read = await runGit(root, ['read-tree', head], undefined, { env });
        if (read.code !== 0) throw gitFailed('read-tree', root, read.stderr);
      }
      added = await runGit(root, ADD_ARGS, undefined, { env });
      if (added.code !== 0 && !UNREADABLE_FILE.test(added.stderr)) throw gitFailed('add (temporary index)', root, added.stderr);
    }
    addWarnings(added, warnings);
    const again = work();
    return again.finish(await runGitBatch(root, again.calls, { env, spawner }));
  });
}

/** --ignore-errors: an unreadable file is left out of the patch and named in a warning. */
function addWarnings(added: GitResult, warnings: WorkspaceWarning[]): void {
  for (const line of added.stderr.split('\n')) {
    if (/^(error|warning):/.test(line)) warnings.push({ code: 'git-add', message: line.trim() });
  }
}

/**
 * Copies the index with the original's modification time. Git trusts an entry's stat data only
 * when the file is older than the index ("racy git"): a copy stamped now would make a file edited
 * in the same second as the last `git add`/commit, at the same size, look clean and drop out of
 * the patch. The time is rounded down to milliseconds, which only makes git re-check more files.
 */
export async function copyIndexKeepingMtime(from: string, to: string): Promise<void> {
  try {
    const original = await stat(from);
    await copyFile(from, to);
    await utimes(to, original.atime, original.mtime);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // a fresh repository has no index yet
  }
}
