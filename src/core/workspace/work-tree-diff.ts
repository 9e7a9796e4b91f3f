import { runGitBatch } from './git-batch.js';
import type { GitSpawner } from './git-spawner.js';
import { mayConvertLineEndings, type LineEndingSources } from './line-endings.js';
import type { StatusReport } from './status.js';
import { onIndexCopy, type IndexWork } from './temp-index.js';

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
 * entry, an entry marked assume-unchanged or skip-worktree (status does not see behind it), a
 * submodule, a repository where git may convert line endings (line-endings.ts: `git add` warns
 * where `git diff` does not, and the bytes can differ); nor when the diff fails or writes
 * anything to stderr (an unreadable file, a warning the add would have put among the warnings).
 *
 * The diff still runs on a copy of the person's index: porcelain `git diff` refreshes the stat
 * cache of the index it reads and writes it back, even with --no-optional-locks, and the capture
 * never writes the person's index (nor takes its lock while their own git runs).
 */
export function workTreeDiffCovers(status: StatusReport, sources: LineEndingSources): boolean {
  return statusAllowsWorkTreeDiff(status) && !hidesChanges(sources.indexListing) && !mayConvertLineEndings(sources);
}

const SPACE = 0x20;
const NUL = 0;
/** `ls-files -v` tags: H, and the others of a plain entry; lowercase (assume-unchanged) and S (skip-worktree) hide changes. */
const hiding = (tag: number | undefined) => tag === 0x53 /* S */ || (tag !== undefined && tag >= 0x61 && tag <= 0x7a);

/**
 * Whether an index entry is marked assume-unchanged or skip-worktree (`ls-files -z --stage -v`,
 * each record "T mode oid stage\tpath"). Status does not show such an entry's change, so it
 * cannot vouch for it: an intent-to-add entry marked so is listed as an empty new file by
 * `git diff HEAD` and not at all by the temporary index.
 */
export function hidesChanges(indexListing: Buffer): boolean {
  for (let at = 0; at < indexListing.length; ) {
    if (hiding(indexListing[at]) && indexListing[at + 1] === SPACE) return true;
    const end = indexListing.indexOf(NUL, at);
    if (end < 0) break;
    at = end + 1;
  }
  return false;
}

/** The part of the rule status alone answers. */
export function statusAllowsWorkTreeDiff(status: StatusReport): boolean {
  return status.oid !== null && status.entries.every((e) => !e.untracked && !e.submodule && e.unmerged !== true && e.y !== 'A');
}

/** The work's diffs on a copy of the index, or null when any of them failed or said anything on stderr (the caller takes the temporary index). */
export async function diffWorkTreeOnIndexCopy<T>(root: string, realIndex: string, work: () => IndexWork<T>, spawner?: GitSpawner): Promise<T | null> {
  return onIndexCopy(realIndex, async (env) => {
    const run = work();
    const results = await runGitBatch(root, run.calls, { env, spawner });
    if (results.some((r) => r.code !== 0 || r.stderr !== '')) return null;
    return run.finish(results);
  });
}
