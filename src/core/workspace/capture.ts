import { realpath } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import {
  WORKSPACE_SNAPSHOT_VERSION,
  WorkspaceErrorCode,
  type WorkspaceFile,
  type WorkspaceGit,
  type WorkspaceSnapshot,
  type WorkspaceSubmodule,
  type WorkspaceWarning,
} from '../../shared/workspace.js';
import { WorkspaceError, gitFailed } from './errors.js';
import { hashDiskPath, mapLimit, type DiskHash } from './file-hash.js';
import { runGit, type GitResult } from './git.js';
import { runGitBatch } from './git-batch.js';
import type { GitSpawner } from './git-spawner.js';
import type { DiffEntry } from './diff-list.js';
import { PATCH_MAX_BYTES, emptyPatch, listAndPatchRun, type ListedPatch, type PatchOptions } from './patch.js';
import { CAPTURE_CONFIG_ARGS, type LineEndingSources } from './line-endings.js';
import { parseRemotes, primaryRemote } from './remotes.js';
import { STATUS_ARGS, parseStatusV2, type StatusEntry, type StatusReport } from './status.js';
import { diffSummarySha256 } from './summary-hash.js';
import { withWorkingTreeIndex } from './temp-index.js';
import { diffWorkTreeOnIndexCopy, workTreeDiffCovers } from './work-tree-diff.js';

export type { WorkspaceSnapshot, WorkspaceGit, WorkspaceFile } from '../../shared/workspace.js';
export { PATCH_MAX_BYTES } from './patch.js';

/** Files hashed at once: enough to hide disk latency, few enough to stay clear of EMFILE. */
const HASH_CONCURRENCY = 16;

export interface CaptureOptions {
  /** Produce the patch (default true). Verification at the target only needs the file list. */
  patch?: boolean;
  /** Patches larger than this are hashed but not kept (default PATCH_MAX_BYTES, 50 MiB). */
  patchMaxBytes?: number;
  now?: Date;
  /** A host's long-lived git shell (git-spawner.ts): a hosted handoff's capture then forks no part of the host (both rounds of git, dirty or clean). */
  spawner?: GitSpawner;
}

export interface CapturedWorkspace {
  snapshot: WorkspaceSnapshot;
  /** The patch bytes, to store with `store.putArtifact(id, bytes, 'patch')`; null past the cap or without git. */
  patchBytes: Buffer | null;
  /** What git said of the repository, for a verification in this process moments later (verify.ts); in memory only, never stored. */
  observed?: ObservedRepository;
}

/**
 * The repository as the capture's git saw it: where it is and its porcelain status, and when git
 * started looking (Date.now()). A hosted handoff's receiver is the process that captured the
 * workspace a few ms before its verdict; it takes these answers instead of asking git again
 * (verify.ts).
 */
export interface ObservedRepository {
  located: RepositoryLocation;
  status: StatusReport;
  at: number;
}

/**
 * Reads where the session works: cwd realpath and, inside a repository, remotes, branch,
 * upstream, HEAD, every changed file with its sha256, and a binary-safe patch of the working tree
 * against HEAD. Never changes the person's working tree or index. A directory outside any
 * repository gives `git: null`.
 */
export async function captureWorkspace(cwd: string, options: CaptureOptions = {}): Promise<WorkspaceSnapshot> {
  return (await captureWorkspaceWithPatch(cwd, options)).snapshot;
}

export async function captureWorkspaceWithPatch(cwd: string, options: CaptureOptions = {}): Promise<CapturedWorkspace> {
  const real = await realpath(cwd).catch((error: NodeJS.ErrnoException) => {
    throw new WorkspaceError(WorkspaceErrorCode.CWD_MISSING, `The working directory ${cwd} cannot be read (${error.code ?? error.message}).`, cwd);
  });
  const warnings: WorkspaceWarning[] = [];
  const base = { version: WORKSPACE_SNAPSHOT_VERSION, cwd: real, capturedAt: (options.now ?? new Date()).toISOString() };
  // status, the remotes and the gitlinks do not depend on where in the work tree git starts
  // (porcelain status and `ls-files --full-name :(top)` name paths from the root): they run from
  // cwd alongside the repository lookup, one round of git processes fewer on every handoff.
  // Outside a repository they fail like the lookup does and their answers are not read.
  // All four in one child process where a shell can run them (git-batch.ts): one fork of this
  // process instead of four.
  // When git starts looking: what it answers is at least this old (Date.now(): the clock a full
  // CLI already has loaded, not perf_hooks).
  const lookedAt = Date.now();
  const round = await runGitBatch(real, [{ args: LOCATE_ARGS }, { args: STATUS_ARGS }, { args: CAPTURE_CONFIG_ARGS }, { args: SUBMODULES_ARGS }], { spawner: options.spawner });
  const located = await parseLocation(real, round[0]!);
  if (!located) return { snapshot: { ...base, git: null, warnings }, patchBytes: null };
  const [statusResult, remotes, submodules] = [round[1]!, parseRemotes(round[2]!), parseSubmodules(round[3]!)];

  const { root, gitDir, commonDir, indexPath } = located;
  if (statusResult.code !== 0) throw gitFailed('status', root, statusResult.stderr);
  const status = parseStatusV2(statusResult.stdout.toString('utf8'));
  const observed: ObservedRepository = { located, status, at: lookedAt };
  const head = status.oid;

  const wantPatch = options.patch ?? true;
  const byPath = new Map<string, StatusEntry>();
  for (const entry of status.entries) byPath.set(entry.path, entry);
  // Every changed path status names is hashed while git diffs (on the temporary index or not) and streams
  // the patch: our hashing and git's work overlap instead of adding up.
  const hashing = hashChangedPaths(root, status.entries);
  hashing.catch(() => undefined); // awaited below; keeps an early failure from going unhandled meanwhile
  const sources = { config: round[2]!, indexListing: round[3]!.stdout, gitDir, commonDir };
  // A clean work tree (status names nothing, not even an untracked file or a submodule) diffs empty: no diff runs.
  const { entries, patch } =
    status.entries.length === 0
      ? { entries: [] as DiffEntry[], patch: wantPatch ? emptyPatch() : null }
      : await diffChanges(root, indexPath, head, status, sources, warnings, { patch: wantPatch, maxBytes: options.patchMaxBytes ?? PATCH_MAX_BYTES }, options.spawner);
  const hashes = await hashing;
  const files = await mapLimit(entries, HASH_CONCURRENCY, (entry) => describeFile(root, entry, byPath, hashes, warnings));

  let patchInfo: WorkspaceGit['patch'] = null;
  if (patch) {
    patchInfo = { sha256: patch.sha256, size: patch.size, stored: patch.bytes !== null, ref: null };
    if (patch.bytes === null) {
      warnings.push({
        code: 'patch-too-large',
        message: `The workspace patch is ${patch.size} bytes, over the ${options.patchMaxBytes ?? PATCH_MAX_BYTES}-byte limit: it is referenced by hash, not stored. Commit or stash the large files to hand them off.`,
      });
    }
  }

  const submodulePaths = new Set(submodules.map((s) => s.path));
  const tracked = status.entries.filter((e) => !e.untracked && !e.submodule && !submodulePaths.has(e.path));
  const git: WorkspaceGit = {
    root,
    gitDir,
    commonDir,
    remote: primaryRemote(remotes),
    remotes,
    branch: status.branch,
    upstream: status.upstream,
    head,
    detached: status.detached,
    worktree: gitDir !== commonDir,
    dirtyFiles: tracked.map((e) => e.path),
    untrackedFiles: status.entries.filter((e) => e.untracked).map((e) => e.path),
    submodules,
    files,
    patch: patchInfo,
    diffSha256: diffSummarySha256(files, patch?.sha256 ?? null),
  };
  return { snapshot: { ...base, git, warnings }, patchBytes: patch?.bytes ?? null, observed };
}

/**
 * The changed files and the patch of a tree status names something in. Where work-tree-diff.ts's
 * rule allows it (nothing untracked or hidden from status, no line-ending conversion, …): HEAD
 * against the work tree, the temporary index's `git add` and its round of git skipped. Anything else, or a diff that failed or warned, takes
 * the temporary index as before. (A clean tree diffs empty: no diff runs at all.)
 */
async function diffChanges(
  root: string,
  indexPath: string,
  head: string | null,
  status: StatusReport,
  sources: LineEndingSources,
  warnings: WorkspaceWarning[],
  options: PatchOptions,
  spawner: GitSpawner | undefined,
): Promise<ListedPatch> {
  if (workTreeDiffCovers(status, sources)) {
    const direct = await diffWorkTreeOnIndexCopy(root, indexPath, () => listAndPatchRun(root, head, { ...options, against: 'work-tree' }), spawner);
    if (direct) return direct;
  }
  return withWorkingTreeIndex(root, indexPath, head, warnings, () => listAndPatchRun(root, head, options), spawner);
}

/** sha256 of every path `git status` reports as present and changed (submodules excluded). */
async function hashChangedPaths(root: string, entries: readonly StatusEntry[]): Promise<Map<string, DiskHash>> {
  const paths = entries.filter((e) => !e.submodule && e.x !== 'D' && e.y !== 'D').map((e) => e.path);
  const hashed = await mapLimit(paths, HASH_CONCURRENCY, (path) => hashDiskPath(join(root, path)));
  return new Map(paths.map((path, i) => [path, hashed[i]!]));
}

/** One changed file: git's view (status, modes, binary, line counts) plus the sha256 of the working-tree bytes. */
async function describeFile(
  root: string,
  entry: DiffEntry,
  byPath: Map<string, StatusEntry>,
  hashes: Map<string, DiskHash>,
  warnings: WorkspaceWarning[],
): Promise<WorkspaceFile> {
  const state = byPath.get(entry.path) ?? (entry.oldPath !== undefined ? byPath.get(entry.oldPath) : undefined);
  const untracked = state?.untracked === true;
  const disk = entry.status === 'deleted' ? { sha256: null, size: null } : (hashes.get(entry.path) ?? (await hashDiskPath(join(root, entry.path))));
  if (entry.status !== 'deleted' && disk.sha256 === null) warnings.push({ code: 'unreadable', message: `Could not hash ${entry.path}.`, path: entry.path });
  const file: WorkspaceFile = {
    path: entry.path,
    status: untracked && entry.status === 'added' ? 'untracked' : entry.status,
    staged: !untracked && state !== undefined && state.x !== '.',
    unstaged: untracked || (state !== undefined && state.y !== '.'),
    sha256: disk.sha256,
    binary: entry.binary,
    size: disk.size,
    oldMode: entry.oldMode,
    newMode: entry.newMode,
    modeChanged: entry.oldMode !== null && entry.newMode !== null && entry.oldMode !== entry.newMode,
    additions: entry.additions,
    deletions: entry.deletions,
  };
  if (entry.oldPath !== undefined) file.oldPath = entry.oldPath;
  return file;
}

export interface RepositoryLocation {
  root: string;
  gitDir: string;
  commonDir: string;
  indexPath: string;
}

/** The git command that finds the work tree around a directory (parseLocation reads its answer). */
export const LOCATE_ARGS = ['rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir', '--git-path', 'index'];

/** The work tree around `dir`, or null outside any (or inside a .git directory / bare repository). */
export async function locateRepository(dir: string): Promise<RepositoryLocation | null> {
  return parseLocation(dir, await runGit(dir, LOCATE_ARGS));
}

/** LOCATE_ARGS's answer, run from `dir`. */
export async function parseLocation(dir: string, result: GitResult): Promise<RepositoryLocation | null> {
  if (result.code !== 0) return null;
  const [top, gitDir, commonDir, index] = result.stdout.toString('utf8').split('\n');
  if (!top || !gitDir || !commonDir || !index) return null;
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(dir, p));
  return {
    root: await realpath(top),
    gitDir: await realpath(gitDir),
    commonDir: await realpath(abs(commonDir)),
    indexPath: abs(index),
  };
}

/**
 * Gitlinks (mode 160000) in the index: submodules are listed with their recorded commit, never
 * descended. From any directory of the work tree: the whole index, paths from the root. `-v`
 * puts a tag before each entry ("H ", "h " assume-unchanged, "S " skip-worktree), which
 * work-tree-diff.ts reads.
 */
const SUBMODULES_ARGS = ['ls-files', '-z', '--stage', '-v', '--full-name', ':(top)'];

function parseSubmodules(result: GitResult): WorkspaceSubmodule[] {
  if (result.code !== 0) return [];
  const submodules: WorkspaceSubmodule[] = [];
  for (const tagged of result.stdout.toString('utf8').split('\0')) {
    const record = tagged.slice(2); // the -v tag and its space
    if (!record.startsWith('160000 ')) continue;
    const tab = record.indexOf('\t');
    submodules.push({ path: record.slice(tab + 1), commit: record.slice(7, record.indexOf(' ', 7)) });
  }
  return submodules;
}
