import { mkdir, readdir, readFile, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { WorkspaceErrorCode, type RehydrateResult, type RehydrationLogEntry } from '../../shared/workspace.js';
import { writeFileAtomic } from '../fs/index.js';
import { sha256Hex } from '../hash.js';
import { locateRepository } from './capture.js';
import { WorkspaceError, gitFailed } from './errors.js';
import { commitExists } from './git-objects.js';
import { gitLine, runGit } from './git.js';

/** Kept in the worktree's own git dir (never in its files): the sha256 of the patch applied there. */
export const APPLIED_MARKER = 'baton-applied-patch';

/** Beside the repository: /code/app → /code/app-baton-<last 8 of the session id>. */
export function defaultWorktreeDir(repoRoot: string, sessionId: string): string {
  const tag = sessionId.replace(/[^A-Za-z0-9]/g, '').slice(-8) || 'session';
  return join(dirname(repoRoot), `${basename(repoRoot)}-baton-${tag}`);
}

export interface WorktreeOptions {
  now?: Date;
}

/**
 * Rebuilds the handed-off workspace without touching the person's own tree: a detached git
 * worktree of `repoRoot` at `head` in `targetDir` (which must be missing or empty), with the
 * patch applied there by `git apply --binary`. Idempotent: a second run finds the worktree and
 * the applied-patch marker and changes nothing ('unchanged' in both log entries). Hooks are
 * switched off for the checkout so no repository script runs on the person's behalf.
 */
export async function rehydrateIntoWorktree(repoRoot: string, head: string | null, patchBytes: Buffer, targetDir: string, options: WorktreeOptions = {}): Promise<RehydrateResult> {
  const at = (options.now ?? new Date()).toISOString();
  const dir = resolve(targetDir);
  if (head === null) throw new WorkspaceError(WorkspaceErrorCode.UNBORN_HEAD, 'The handoff was made on a branch with no commit yet: there is no HEAD to check out.', repoRoot);
  const repo = await locateRepository(repoRoot);
  if (!repo) throw new WorkspaceError(WorkspaceErrorCode.NOT_A_REPOSITORY, `${repoRoot} is not a git repository.`, repoRoot);
  if (!(await commitExists(repo.root, head))) {
    throw new WorkspaceError(WorkspaceErrorCode.HEAD_NOT_FOUND, `Commit ${head} is not in ${repo.root}; fetch it (git fetch) and try again.`, repo.root);
  }
  const patchSha256 = sha256Hex(patchBytes);
  const log: RehydrationLogEntry[] = [];

  const existing = await existingWorktree(dir, repo.commonDir, head);
  if (existing === 'foreign') throw new WorkspaceError(WorkspaceErrorCode.TARGET_NOT_EMPTY, `${dir} already holds other files; pick an empty or new directory.`, dir);
  if (existing === 'ours') {
    log.push({ type: 'workspace.rehydrate', at, step: 'worktree-add', result: 'unchanged', targetDir: dir, head });
  } else {
    await mkdir(dirname(dir), { recursive: true });
    const added = await runGit(repo.root, ['-c', 'core.hooksPath=/dev/null', 'worktree', 'add', '--detach', '--quiet', dir, head]);
    if (added.code !== 0) throw gitFailed('worktree add', dir, added.stderr);
    log.push({ type: 'workspace.rehydrate', at, step: 'worktree-add', result: 'applied', targetDir: dir, head });
  }

  const gitDir = await gitLine(dir, ['rev-parse', '--absolute-git-dir']);
  if (gitDir === null) throw gitFailed('rev-parse', dir, 'the new worktree has no git dir');
  const marker = join(gitDir, APPLIED_MARKER);
  const applied = (await readFile(marker, 'utf8').catch(() => '')).trim();
  const entry = { type: 'workspace.rehydrate' as const, at, step: 'patch-apply' as const, targetDir: dir, head, patchSha256 };
  if (applied === patchSha256 || patchBytes.length === 0) {
    log.push({ ...entry, result: 'unchanged' });
    return { log, targetDir: dir };
  }
  if (applied !== '') throw new WorkspaceError(WorkspaceErrorCode.TARGET_NOT_EMPTY, `${dir} already has another handed-off patch (${applied}) applied; pick a new directory.`, dir);
  const check = await runGit(dir, ['apply', '--binary', '--check', '--whitespace=nowarn'], patchBytes);
  if (check.code === 0) {
    const result = await runGit(dir, ['apply', '--binary', '--whitespace=nowarn'], patchBytes);
    if (result.code !== 0) throw new WorkspaceError(WorkspaceErrorCode.PATCH_FAILED, `git apply failed in ${dir}: ${result.stderr.trim()}`, dir);
    await writeFileAtomic(marker, `${patchSha256}\n`);
    log.push({ ...entry, result: 'applied' });
    return { log, targetDir: dir };
  }
  // Applied before, but the marker was not written (interrupted run): the reverse applies cleanly.
  const reverse = await runGit(dir, ['apply', '--binary', '--check', '--reverse', '--whitespace=nowarn'], patchBytes);
  if (reverse.code !== 0) throw new WorkspaceError(WorkspaceErrorCode.PATCH_FAILED, `The handed-off patch does not apply at ${head} in ${dir}: ${check.stderr.trim().split('\n')[0] ?? ''}`, dir);
  await writeFileAtomic(marker, `${patchSha256}\n`);
  log.push({ ...entry, result: 'unchanged' });
  return { log, targetDir: dir };
}

/** 'new' (missing or empty), 'ours' (a worktree of this repository at head), or 'foreign'. */
async function existingWorktree(dir: string, commonDir: string, head: string): Promise<'new' | 'ours' | 'foreign'> {
  const entries = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (entries === null || entries.length === 0) return 'new';
  const here = await locateRepository(dir);
  if (!here || here.root !== (await realpath(dir)) || here.commonDir !== commonDir) return 'foreign';
  return (await gitLine(dir, ['rev-parse', '--verify', '--quiet', 'HEAD'])) === head ? 'ours' : 'foreign';
}
