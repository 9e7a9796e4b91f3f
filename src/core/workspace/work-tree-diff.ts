import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGitBatch } from './git-batch.js';
import type { GitSpawner } from './git-spawner.js';
import { mayConvertLineEndings, type LineEndingSources } from './line-endings.js';
import type { StatusReport } from './status.js';
import { copyIndexKeepingMtime, type IndexWork } from './temp-index.js';

/**
 * The capture's short way for the common dirty tree (issue 20): where nothing is untracked, the
 * working tree holds no file the index does not already name, so `git diff HEAD` (HEAD against
 * the working tree) reads exactly what `git add --all` on a temporary index followed by
 * `git diff --cached HEAD` reads — without the add, its index write and its round of git before
 * the diffs. `work-tree-diff.corpus.test.ts` compares the two byte for byte on hundreds of
 * generated trees (renames, modes, binary, deletions, CRLF and attributes, staged and unstaged
 * mixes, odd paths, assume-unchanged and skip-worktree entries).
 *
 * Not taken — the temporary index then runs as before — for anything status shows that this
 * proof does not cover: an untracked file (only `add` brings it into the diff), an unborn HEAD
 * (`git diff` without HEAD compares the index, not HEAD), an unmerged path, an intent-to-add
 * entry, a submodule, a repository where git may convert line endings (line-endings.ts:
 * `git add` warns where `git diff` does not); nor when the diff fails or writes anything to stderr (an unreadable file,
 * a warning the add would have put among the snapshot's warnings).
 *
 * The diff still runs on a copy of the person's index: porcelain `git diff` refreshes the stat
 * cache of the index it reads and writes it back, even with --no-optional-locks, and the capture
 * never writes the person's index (nor takes its lock while their own git runs).
 */
export function workTreeDiffCovers(status: StatusReport, lineEndings: LineEndingSources): boolean {
  if (status.oid === null) return false;
  if (!status.entries.every((e) => !e.untracked && !e.submodule && e.unmerged !== true && e.y !== 'A')) return false;
  return !mayConvertLineEndings(lineEndings);
}

/** The work's diffs on a copy of the index, or null when any of them failed or said anything on stderr (the caller takes the temporary index). */
export async function diffWorkTreeOnIndexCopy<T>(root: string, realIndex: string, work: () => IndexWork<T>, spawner?: GitSpawner): Promise<T | null> {
  const dir = await mkdtemp(join(tmpdir(), 'baton-index-'));
  const env = { GIT_INDEX_FILE: join(dir, 'index') };
  try {
    await copyIndexKeepingMtime(realIndex, env.GIT_INDEX_FILE);
    const run = work();
    const results = await runGitBatch(root, run.calls, { env, spawner });
    if (results.some((r) => r.code !== 0 || r.stderr !== '')) return null;
    return run.finish(results);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
