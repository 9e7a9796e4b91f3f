import { realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DriftedFile, VerificationReason, WorkspaceSnapshot, WorkspaceVerification } from '../../shared/workspace.js';
import { sha256Hex } from '../hash.js';
import { LOCATE_ARGS, parseLocation, type ObservedRepository } from './capture.js';
import { gitFailed } from './errors.js';
import { hashDiskPath, mapLimit } from './file-hash.js';
import { commitExistsArgs, readBlobs } from './git-objects.js';
import { runGitBatch } from './git-batch.js';
import type { GitSpawner } from './git-spawner.js';
import { runGit } from './git.js';
import { describeHeadDrift } from './head-drift-words.js';
import { readRemotes } from './remotes.js';
import { STATUS_ARGS, parseStatusV2 } from './status.js';

const HASH_CONCURRENCY = 16;

/**
 * Compares the handed-off workspace with the disk at `targetPath` (ARCHITECTURE.md §4, target
 * step 5). Reads only; never writes anything, not even git objects.
 *
 * - complete: same root and HEAD, and every file has the handed-off content (no drift at all).
 * - partial: same repository and branch, but HEAD moved, the root moved, or some files differ;
 *   each drifted file is listed with the expected and the actual sha256.
 * - none: the root is missing, is not a repository, is another repository, or is on another
 *   branch (the person's tree is then left alone and a worktree at HEAD is offered instead).
 */
export interface VerifyOptions {
  /** A host's long-lived git shell (git-spawner.ts): the first round of git then forks no part of the host. */
  spawner?: GitSpawner;
  /**
   * What this process's capture of the same repository saw (capture.ts), taken instead of asking
   * git again when it is of this root and at most OBSERVATION_MAX_AGE_MS old: a hosted handoff's
   * receiver verifies the workspace its own capture read moments before. The files are hashed from
   * the disk either way; what the verdict then takes as the capture saw it is HEAD, the branch and
   * which files are changed (a commit, a checkout or a newly changed file within those ms is seen
   * by the next verification: the session's Changes view, a rehydration).
   */
  observed?: ObservedRepository;
}

/**
 * How old a capture's view of the repository may be and still stand for git's answers here. A
 * hosted handoff's verdict follows its capture by 10–50 ms (a session of up to 1 MiB lands well
 * within this); anything older asks git again.
 */
export const OBSERVATION_MAX_AGE_MS = 2_000;

export async function verifyWorkspace(expected: WorkspaceSnapshot, targetPath: string, options: VerifyOptions = {}): Promise<WorkspaceVerification> {
  const none = (code: VerificationReason['code'], message: string, targetRoot: string | null = null): WorkspaceVerification => ({
    status: 'none',
    reasons: [{ code, message }],
    drifted: [],
    targetRoot,
  });
  const target = await realpath(targetPath).catch(() => null);
  if (target === null || !(await stat(target)).isDirectory()) return none('root-missing', `${targetPath} does not exist here.`);
  const git = expected.git;
  if (git === null) {
    return { status: 'complete', reasons: [{ code: 'not-a-git-workspace', message: 'The handed-off directory is not a git repository: there is nothing to compare.' }], drifted: [], targetRoot: null };
  }
  const seen = freshObservation(options.observed, target) ?? (await observe(target, options.spawner));
  if (!seen) return none('not-a-repository', `${target} is not inside a git repository.`);
  const { located, status } = seen;
  const root = located.root;
  const headKnown = headKnownIn(target, git.head, status.oid, options.spawner);
  if (!(await sameRepository(git, located.commonDir, root, headKnown))) {
    return none('another-repository', `${root} is another repository than the handed-off ${git.root}.`, root);
  }
  if (git.branch !== status.branch) {
    const name = (b: string | null) => (b === null ? 'a detached HEAD' : `branch ${b}`);
    return none('branch-changed', `${root} is on ${name(status.branch)}, the handoff was on ${name(git.branch)}.`, root);
  }

  const reasons: VerificationReason[] = [];
  if (root !== git.root) reasons.push({ code: 'root-moved', message: `The repository is at ${root}, the handoff was made in ${git.root}.` });
  let headDrift: WorkspaceVerification['headDrift'];
  if (status.oid !== git.head) {
    headDrift = { expected: git.head, actual: status.oid };
    const counts = git.head !== null && status.oid !== null && (await headKnown()) ? await aheadBehind(root, git.head, status.oid) : null;
    reasons.push({ code: 'head-drift', message: describeHeadDrift({ expected: git.head, actual: status.oid, ahead: counts?.ahead ?? null, behind: counts?.behind ?? null }) });
  }

  // What each path should hold: the handed-off hash for changed files, else the handed-off HEAD's blob.
  const expectedByPath = new Map<string, string | null>();
  const expectedMode = new Map<string, string>();
  for (const file of git.files) {
    if (file.newMode !== null) expectedMode.set(file.path, file.newMode);
    if (file.status === 'renamed' && file.oldPath !== undefined) expectedByPath.set(file.oldPath, null);
    expectedByPath.set(file.path, file.sha256);
  }
  const submodules = new Set(git.submodules.map((s) => s.path));
  const candidates = new Set(expectedByPath.keys());
  for (const entry of status.entries) {
    if (entry.submodule || submodules.has(entry.path)) continue;
    candidates.add(entry.path);
    if (entry.origPath !== undefined) candidates.add(entry.origPath);
  }
  if (headDrift && git.head && status.oid && (await headKnown())) {
    for (const path of await changedBetween(root, git.head, status.oid)) if (!submodules.has(path)) candidates.add(path);
  }
  const cleanAtSource = [...candidates].filter((p) => !expectedByPath.has(p));
  if (cleanAtSource.length > 0) {
    if (git.head !== null && (await headKnown())) {
      const blobs = await readBlobs(root, git.head, cleanAtSource);
      for (const path of cleanAtSource) {
        const blob = blobs.get(path);
        expectedByPath.set(path, blob ? sha256Hex(blob) : null);
      }
    } else if (git.head === null) {
      for (const path of cleanAtSource) expectedByPath.set(path, null);
    } else {
      reasons.push({ code: 'head-unknown', message: `Commit ${git.head} is not in ${root}: files changed only here cannot be compared (fetch it first).` });
    }
  }

  const checked = [...expectedByPath.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const drifted: DriftedFile[] = (
    await mapLimit(checked, HASH_CONCURRENCY, async ([path, expectedSha256]): Promise<DriftedFile | null> => {
      const actual = await hashDiskPath(join(root, path));
      if (actual.sha256 !== expectedSha256) return { path, expectedSha256, actualSha256: actual.sha256 };
      const mode = expectedMode.get(path);
      if (mode !== undefined && actual.gitMode !== mode) return { path, expectedSha256, actualSha256: actual.sha256, expectedMode: mode, actualMode: actual.gitMode };
      return null;
    })
  ).filter((d): d is DriftedFile => d !== null);
  if (drifted.length > 0) reasons.push({ code: 'file-drift', message: `${drifted.length} file(s) differ from the handed-off workspace.` });

  const result: WorkspaceVerification = { status: 'partial', reasons, drifted, targetRoot: root };
  if (headDrift) result.headDrift = headDrift;
  if (reasons.length === 0) {
    result.status = 'complete';
    result.reasons = [{ code: 'match', message: 'Same repository, HEAD and files as handed off.' }];
  }
  return result;
}

/** The capture's view when it is of `target`'s repository root and recent enough to stand for git's answers now. */
function freshObservation(observed: ObservedRepository | undefined, target: string): Pick<ObservedRepository, 'located' | 'status'> | undefined {
  if (!observed || observed.located.root !== target) return undefined;
  const age = Date.now() - observed.at;
  return age >= 0 && age <= OBSERVATION_MAX_AGE_MS ? observed : undefined;
}

/** Where the repository around `target` is and its status, from git (null outside any repository). */
async function observe(target: string, spawner: GitSpawner | undefined): Promise<Pick<ObservedRepository, 'located' | 'status'> | null> {
  // The repository lookup and its status do not depend on each other (porcelain status names
  // paths from the root wherever it runs): one round, one child process where a shell can run
  // them (git-batch.ts). A host process is big, and each fork of it was most of this check's time.
  const round = await runGitBatch(target, [{ args: LOCATE_ARGS }, { args: STATUS_ARGS }], { spawner });
  const located = await parseLocation(target, round[0]!);
  if (!located) return null;
  const statusResult = round[1]!;
  if (statusResult.code !== 0) throw gitFailed('status', located.root, statusResult.stderr);
  return { located, status: parseStatusV2(statusResult.stdout.toString('utf8')) };
}

/**
 * Whether the handed-off HEAD is a commit of the repository at `target`, asked once and only when
 * a step needs it. Without git when the answer is plain: no HEAD handed off, or the very commit
 * this tree's HEAD is (status named it). Otherwise one `cat-file -e` (a handoff whose HEAD is
 * unchanged, the usual case, runs one git process fewer).
 */
function headKnownIn(target: string, head: string | null, currentHead: string | null, spawner: GitSpawner | undefined): () => Promise<boolean> {
  let known: Promise<boolean> | undefined;
  return () => {
    if (known) return known;
    if (head === null || head === currentHead) return (known = Promise.resolve(true));
    const args = commitExistsArgs(head);
    known = args === null ? Promise.resolve(false) : runGitBatch(target, [{ args }], { spawner }).then(([result]) => result!.code === 0);
    return known;
  };
}

/** The same repository: the same git common dir, or the handed-off HEAD is known here, or a remote URL is shared. */
async function sameRepository(git: NonNullable<WorkspaceSnapshot['git']>, commonDir: string, root: string, headKnown: () => Promise<boolean>): Promise<boolean> {
  if (commonDir === git.commonDir) return true;
  if (git.head !== null && (await headKnown())) return true;
  const here = new Set((await readRemotes(root)).map((r) => r.url));
  return git.remotes.some((r) => here.has(r.url));
}

/** Commits in `actual` not in `expected` (ahead) and the other way (behind); null when git cannot tell. */
async function aheadBehind(root: string, expected: string, actual: string): Promise<{ ahead: number; behind: number } | null> {
  const result = await runGit(root, ['rev-list', '--left-right', '--count', `${expected}...${actual}`]);
  if (result.code !== 0) return null;
  const [behind, ahead] = result.stdout.toString('utf8').trim().split(/\s+/).map(Number);
  return Number.isInteger(ahead) && Number.isInteger(behind) ? { ahead: ahead!, behind: behind! } : null;
}

async function changedBetween(root: string, from: string, to: string): Promise<string[]> {
  const result = await runGit(root, ['diff', '--name-only', '-z', '--no-renames', '--ignore-submodules=all', '--no-ext-diff', from, to]);
  if (result.code !== 0) throw gitFailed('diff --name-only', root, result.stderr);
  return result.stdout.toString('utf8').split('\0').filter((p) => p.length > 0);
}
