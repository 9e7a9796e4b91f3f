import { z } from 'zod';
import { builtOnFirstUse } from './built-on-first-use.js';

/**
 * The workspace dimension of a session (ARCHITECTURE.md §1): what was captured at the source,
 * how the target's disk compares, the file list and per-file diff for the viewer, and the
 * rehydration requests and their log. Pure schemas: the Node side lives in src/core/workspace.
 */

export const WORKSPACE_SNAPSHOT_VERSION = 1;

/** Stable codes of workspace failures, shared by core, hosts and the UI. */
export const WorkspaceErrorCode = {
  CWD_MISSING: 'WORKSPACE_CWD_MISSING',
  NOT_A_REPOSITORY: 'WORKSPACE_NOT_A_REPOSITORY',
  GIT_FAILED: 'WORKSPACE_GIT_FAILED',
  PATCH_NOT_STORED: 'WORKSPACE_PATCH_NOT_STORED',
  NOT_IN_HANDOFF: 'WORKSPACE_NOT_IN_HANDOFF',
  UNSAFE_PATH: 'WORKSPACE_UNSAFE_PATH',
  TARGET_NOT_EMPTY: 'WORKSPACE_TARGET_NOT_EMPTY',
  HEAD_NOT_FOUND: 'WORKSPACE_HEAD_NOT_FOUND',
  UNBORN_HEAD: 'WORKSPACE_UNBORN_HEAD',
  PATCH_FAILED: 'WORKSPACE_PATCH_FAILED',
} as const;
export type WorkspaceErrorCode = (typeof WorkspaceErrorCode)[keyof typeof WorkspaceErrorCode];

const Sha256 = builtOnFirstUse(() => z.string().regex(/^[0-9a-f]{64}$/, 'expected a lowercase hex sha256'));
const GitMode = builtOnFirstUse(() => z.string().regex(/^[0-7]{6}$/, 'expected a git file mode such as 100644'));

/** Relative to HEAD → working tree (what `git diff HEAD` plus untracked files would show). */
export const WorkspaceFileStatus = builtOnFirstUse(() => z.enum(['modified', 'added', 'deleted', 'renamed', 'copied', 'typechange', 'untracked']));
export type WorkspaceFileStatus = z.infer<typeof WorkspaceFileStatus>;

export const WorkspaceFile = builtOnFirstUse(() => z.looseObject({
  /** Repository-relative, '/'-separated, as git spells it (may hold spaces, newlines, unicode). */
  path: z.string().min(1),
  /** The source of a rename or copy. */
  oldPath: z.string().min(1).optional(),
  status: WorkspaceFileStatus,
  /** Some of the change is in the index. */
  staged: z.boolean(),
  /** Some of the change is only in the working tree (untracked files count as unstaged). */
  unstaged: z.boolean(),
  /** sha256 of the working-tree bytes (a symlink: of its target text); null when deleted or unreadable. */
  sha256: Sha256.nullable(),
  binary: z.boolean(),
  /** Working-tree size in bytes; null when deleted. */
  size: z.number().int().nonnegative().nullable(),
  /** Git modes at HEAD and in the working tree (null where the file does not exist). */
  oldMode: GitMode.nullable(),
  newMode: GitMode.nullable(),
  modeChanged: z.boolean(),
  /** Line counts from numstat; null for binary files. */
  additions: z.number().int().nonnegative().nullable(),
  deletions: z.number().int().nonnegative().nullable(),
}));
export type WorkspaceFile = z.infer<typeof WorkspaceFile>;

export const WorkspaceRemote = builtOnFirstUse(() => z.looseObject({
  name: z.string(),
  /** Credentials (user:password@) are removed before the URL is kept anywhere. */
  url: z.string(),
}));
export type WorkspaceRemote = z.infer<typeof WorkspaceRemote>;

export const WorkspaceSubmodule = builtOnFirstUse(() => z.looseObject({
  path: z.string(),
  /** The commit recorded in the superproject's index. Submodules are listed, never descended. */
  commit: z.string(),
}));
export type WorkspaceSubmodule = z.infer<typeof WorkspaceSubmodule>;

export const WorkspacePatch = builtOnFirstUse(() => z.looseObject({
  /** sha256 of the whole patch (computed while streaming, also when it was too big to keep). */
  sha256: Sha256,
  size: z.number().int().nonnegative(),
  /** False past PATCH_MAX_BYTES: the patch is referenced by hash, not stored. */
  stored: z.boolean(),
  /** The store artifact ref, once the patch was put under artifacts/. */
  ref: z.string().nullable(),
}));
export type WorkspacePatch = z.infer<typeof WorkspacePatch>;

export const WorkspaceWarning = builtOnFirstUse(() => z.looseObject({
  code: z.string(),
  message: z.string(),
  path: z.string().optional(),
}));
export type WorkspaceWarning = z.infer<typeof WorkspaceWarning>;

export const WorkspaceGit = builtOnFirstUse(() => z.looseObject({
  root: z.string(),
  /** This worktree's git dir and the repository's common dir (differ in a linked worktree). */
  gitDir: z.string(),
  commonDir: z.string(),
  /** The URL of `origin`, else of the first remote (credentials removed). */
  remote: z.string().nullable(),
  remotes: z.array(WorkspaceRemote),
  branch: z.string().nullable(),
  upstream: z.string().nullable(),
  /** null on an unborn branch. */
  head: z.string().nullable(),
  detached: z.boolean(),
  /** True in a linked worktree (`git worktree add`). */
  worktree: z.boolean(),
  /** Tracked paths with changes (staged or not); kept for the manifest's dirty_files. */
  dirtyFiles: z.array(z.string()),
  untrackedFiles: z.array(z.string()),
  submodules: z.array(WorkspaceSubmodule),
  files: z.array(WorkspaceFile),
  /** null when capture ran without a patch (verification at the target). */
  patch: WorkspacePatch.nullable(),
  /** The manifest's diff_sha256: see diffSummarySha256 in src/core/workspace/summary-hash.ts. */
  diffSha256: Sha256.nullable(),
}));
export type WorkspaceGit = z.infer<typeof WorkspaceGit>;

export const WorkspaceSnapshot = builtOnFirstUse(() => z.looseObject({
  version: z.number().int().positive().optional(),
  /** The working directory as a realpath. */
  cwd: z.string(),
  capturedAt: z.string().optional(),
  git: WorkspaceGit.nullable(),
  warnings: z.array(WorkspaceWarning).optional(),
}));
export type WorkspaceSnapshot = z.infer<typeof WorkspaceSnapshot>;

export const VerificationStatus = builtOnFirstUse(() => z.enum(['complete', 'partial', 'none']));
export type VerificationStatus = z.infer<typeof VerificationStatus>;

export const VerificationReasonCode = builtOnFirstUse(() => z.enum([
  'match',
  'not-a-git-workspace',
  'root-missing',
  'not-a-repository',
  'another-repository',
  'branch-changed',
  'root-moved',
  'head-drift',
  'head-unknown',
  'file-drift',
]));

export const VerificationReason = builtOnFirstUse(() => z.looseObject({ code: VerificationReasonCode, message: z.string() }));
export type VerificationReason = z.infer<typeof VerificationReason>;

export const DriftedFile = builtOnFirstUse(() => z.looseObject({
  path: z.string(),
  /** What the handed-off workspace had (null: the file did not exist there). */
  expectedSha256: Sha256.nullable(),
  /** What the target's disk has now (null: missing). */
  actualSha256: Sha256.nullable(),
  /** Set when only the file mode differs (e.g. the executable bit was dropped). */
  expectedMode: GitMode.optional(),
  actualMode: GitMode.nullable().optional(),
}));
export type DriftedFile = z.infer<typeof DriftedFile>;

export const WorkspaceVerification = builtOnFirstUse(() => z.looseObject({
  status: VerificationStatus,
  reasons: z.array(VerificationReason),
  drifted: z.array(DriftedFile),
  headDrift: z.looseObject({ expected: z.string().nullable(), actual: z.string().nullable() }).optional(),
  /** The repository root found at the target (realpath), when there is one. */
  targetRoot: z.string().nullable(),
}));
export type WorkspaceVerification = z.infer<typeof WorkspaceVerification>;

/** The diff viewer's file list. */
export const DiffFileList = builtOnFirstUse(() => z.looseObject({
  files: z.array(WorkspaceFile),
  counts: z.record(z.string(), z.number().int().nonnegative()),
  total: z.number().int().nonnegative(),
  additions: z.number().int().nonnegative(),
  deletions: z.number().int().nonnegative(),
}));
export type DiffFileList = z.infer<typeof DiffFileList>;

/** One side of a file diff. Binary and oversized files are described, not inlined. */
export const FileSide = builtOnFirstUse(() => z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string(), size: z.number().int().nonnegative(), sha256: Sha256 }),
  z.object({
    kind: z.literal('binary'),
    size: z.number().int().nonnegative(),
    sha256: Sha256,
    /** A PNG, JPEG, GIF or WebP (by its bytes, never its name) up to IMAGE_PREVIEW_MAX_BYTES: its bytes, for a preview. */
    image: z.object({ mime: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']), base64: z.string() }).optional(),
  }),
  /** Over FILE_INLINE_MAX_BYTES: ask again with `full: true` to open it on demand. */
  z.object({ kind: z.literal('too-large'), size: z.number().int().nonnegative(), sha256: Sha256 }),
  z.object({ kind: z.literal('absent') }),
  /** The content cannot be produced here (e.g. the patch was too big to store). */
  z.object({ kind: z.literal('unavailable'), reason: z.string() }),
]));
export type FileSide = z.infer<typeof FileSide>;

export const FileDiff = builtOnFirstUse(() => z.looseObject({
  path: z.string(),
  oldPath: z.string().optional(),
  status: WorkspaceFileStatus,
  binary: z.boolean(),
  /** What the left side shows: HEAD content, or the target's disk (partial rehydration). */
  against: z.enum(['head', 'disk']),
  original: FileSide,
  modified: FileSide,
}));
export type FileDiff = z.infer<typeof FileDiff>;

export const RehydrationPlan = builtOnFirstUse(() => z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('nothing'), reason: z.string() }),
  z.object({
    kind: z.literal('per-file'),
    targetRoot: z.string(),
    files: z.array(z.object({ path: z.string(), action: z.enum(['write', 'delete']), expectedSha256: Sha256.nullable(), actualSha256: Sha256.nullable() })),
  }),
  z.object({
    kind: z.literal('worktree'),
    /** Where the commit can be found (the handed-off root), when it exists here. */
    repoRoot: z.string().nullable(),
    head: z.string().nullable(),
    defaultDir: z.string().nullable(),
    reason: z.string(),
  }),
]));
export type RehydrationPlan = z.infer<typeof RehydrationPlan>;

/** What the UI sends after the person confirmed a step. */
export const RehydrateRequest = builtOnFirstUse(() => z.discriminatedUnion('action', [
  z.object({ action: z.literal('take-file'), sessionId: z.string(), path: z.string().min(1) }),
  z.object({ action: z.literal('worktree'), sessionId: z.string(), targetDir: z.string().min(1).optional() }),
]));
export type RehydrateRequest = z.infer<typeof RehydrateRequest>;

/** One logged rehydration step; the caller appends it to the session. */
export const RehydrationLogEntry = builtOnFirstUse(() => z.looseObject({
  type: z.literal('workspace.rehydrate'),
  at: z.string(),
  step: z.enum(['take-file', 'worktree-add', 'patch-apply']),
  /** 'unchanged' means the step had already been done: running it again changed nothing. */
  result: z.enum(['applied', 'unchanged']),
  path: z.string().optional(),
  targetDir: z.string().optional(),
  head: z.string().nullable().optional(),
  expectedSha256: Sha256.nullable().optional(),
  previousSha256: Sha256.nullable().optional(),
  /** The artifact ref of the replaced bytes (kept under the session's artifacts/). */
  backupRef: z.string().nullable().optional(),
  patchSha256: Sha256.nullable().optional(),
}));
export type RehydrationLogEntry = z.infer<typeof RehydrationLogEntry>;

export const RehydrateResult = builtOnFirstUse(() => z.looseObject({
  log: z.array(RehydrationLogEntry),
  targetDir: z.string().optional(),
}));
export type RehydrateResult = z.infer<typeof RehydrateResult>;
