import { lstat, mkdir, readFile, readlink, rename, rm, symlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { WorkspaceErrorCode, type RehydrationLogEntry, type WorkspaceFile, type WorkspaceSnapshot } from '../../shared/workspace.js';
import { fsyncDir, tempPathFor, writeFileAtomic } from '../fs/index.js';
import { sha256Hex } from '../hash.js';
import type { SessionStore } from '../store/types.js';
import { WorkspaceError } from './errors.js';
import { hashDiskPath } from './file-hash.js';
import { commitExists, readBlobs } from './git-objects.js';
import { handedOffContents } from './handed-off.js';
import { resolveInside } from './safe-path.js';
import { readSessionPatch, readSessionWorkspace } from './session-workspace.js';

/** Artifact extension of a working-tree file replaced by "take the handed-off version". */
export const REPLACED_ARTIFACT_EXTENSION = 'orig';

export interface TakeOptions {
  /** The person's working tree (default: the handed-off repository root). */
  targetRoot?: string;
  /** The handed-off snapshot (default: session.json's `workspace`). */
  expected?: WorkspaceSnapshot;
  now?: Date;
}

/**
 * "Take the handed-off version" of one file, after the person confirmed it for this path. The
 * current bytes are kept under the session's artifacts/ first, then the handed-off bytes are
 * written atomically (temp, fsync, rename, fsync dir), or the file is removed when it did not
 * exist in the handoff. Idempotent: when the disk already holds the handed-off bytes nothing is
 * written and the log entry says 'unchanged'. The caller appends the entry to the session.
 */
export async function takeHandedOffVersion(store: SessionStore, sessionId: string, path: string, options: TakeOptions = {}): Promise<RehydrationLogEntry> {
  const expected = options.expected ?? (await readSessionWorkspace(store, sessionId));
  const git = expected?.git;
  if (!expected || !git) throw new WorkspaceError(WorkspaceErrorCode.NOT_IN_HANDOFF, `Session ${sessionId} has no handed-off git workspace.`, sessionId);
  const root = options.targetRoot ?? git.root;
  const abs = await resolveInside(root, path);
  const base = { type: 'workspace.rehydrate' as const, at: (options.now ?? new Date()).toISOString(), step: 'take-file' as const, path };

  const file = git.files.find((f) => f.path === path);
  const renamedAway = git.files.some((f) => f.status === 'renamed' && f.oldPath === path);
  const current = await hashDiskPath(abs);
  const wantSha = file ? file.sha256 : renamedAway ? null : undefined;
  const modeOk = !file?.newMode || current.gitMode === file.newMode || current.sha256 === null;
  if (wantSha !== undefined && current.sha256 === wantSha && modeOk) return { ...base, result: 'unchanged', expectedSha256: wantSha, previousSha256: current.sha256, backupRef: null };

  const content = await wantedContent(store, sessionId, expected, root, path, file, renamedAway);
  const contentSha = content === null ? null : sha256Hex(content);
  if (file && contentSha !== file.sha256) {
    throw new WorkspaceError(WorkspaceErrorCode.PATCH_FAILED, `The stored patch gives ${path} another content (${contentSha}) than was handed off (${file.sha256}); nothing was written.`, path);
  }
  if (current.sha256 === contentSha && modeOk) return { ...base, result: 'unchanged', expectedSha256: contentSha, previousSha256: current.sha256, backupRef: null };
  if (current.kind === 'other') throw new WorkspaceError(WorkspaceErrorCode.UNSAFE_PATH, `${abs} is a directory or special file; it was left alone.`, path);

  let backupRef: string | null = null;
  let keptMode = 0o644;
  if (current.kind !== 'missing') {
    const stats = await lstat(abs);
    if (stats.isFile()) keptMode = stats.mode & 0o777;
    const bytes = stats.isSymbolicLink() ? Buffer.from(await readlink(abs, { encoding: 'buffer' })) : await readFile(abs);
    backupRef = (await store.putArtifact(sessionId, bytes, REPLACED_ARTIFACT_EXTENSION)).ref;
  }
  if (content === null) {
    await rm(abs, { force: true });
    await fsyncDir(dirname(abs));
  } else {
    await mkdir(dirname(abs), { recursive: true });
    await writeContent(abs, content, file?.newMode ?? null, keptMode);
  }
  const after = await hashDiskPath(abs);
  if (after.sha256 !== contentSha) throw new WorkspaceError(WorkspaceErrorCode.PATCH_FAILED, `${abs} changed while it was written; check it by hand (the previous bytes are in ${backupRef ?? 'nowhere: it did not exist'}).`, path);
  return { ...base, result: 'applied', expectedSha256: contentSha, previousSha256: current.sha256, backupRef };
}

/** What the file should hold: from the patch for a changed file, else the handed-off HEAD's blob. */
async function wantedContent(
  store: SessionStore,
  sessionId: string,
  expected: WorkspaceSnapshot,
  root: string,
  path: string,
  file: WorkspaceFile | undefined,
  renamedAway: boolean,
): Promise<Buffer | null> {
  const git = expected.git!;
  if (file) {
    if (file.status === 'deleted') return null;
    const patch = await readSessionPatch(store, sessionId, expected);
    if (patch === null) throw new WorkspaceError(WorkspaceErrorCode.PATCH_NOT_STORED, `The handed-off patch was too large to store, so ${path} cannot be restored from it.`, path);
    return (await handedOffContents(root, git.head, patch, [file])).get(path) ?? null;
  }
  if (renamedAway || git.head === null) return null;
  if (!(await commitExists(root, git.head))) throw new WorkspaceError(WorkspaceErrorCode.HEAD_NOT_FOUND, `Commit ${git.head} is not in ${root}; fetch it first.`, path);
  return (await readBlobs(root, git.head, [path])).get(path) ?? null;
}

/** Writes with the handed-off git mode; a file restored from HEAD keeps the mode it has now. */
async function writeContent(abs: string, content: Buffer, gitMode: string | null, keptMode: number): Promise<void> {
  if (gitMode === '120000') {
    // A symlink cannot be written in place: make it under a temp name and rename it over.
    const temp = tempPathFor(abs);
    await symlink(content.toString('utf8'), temp);
    await rename(temp, abs);
    await fsyncDir(dirname(abs));
    return;
  }
  const mode = gitMode === '100755' ? 0o755 : gitMode === '100644' ? 0o644 : keptMode;
  await writeFileAtomic(abs, content, { mode });
}
