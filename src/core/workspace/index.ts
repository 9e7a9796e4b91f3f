/** Workspace capture, verification, rehydration and diff data (issue #5, the Node side). */
export { captureWorkspace, captureWorkspaceWithPatch, locateRepository, PATCH_MAX_BYTES } from './capture.js';
export type { CaptureOptions, CapturedWorkspace, ObservedRepository, RepositoryLocation } from './capture.js';
export { verifyWorkspace } from './verify.js';
export type { VerifyOptions } from './verify.js';
export { GitSpawner } from './git-spawner.js';
export { planRehydration } from './plan.js';
export { takeHandedOffVersion, REPLACED_ARTIFACT_EXTENSION } from './take-file.js';
export type { TakeOptions } from './take-file.js';
export { rehydrateIntoWorktree, defaultWorktreeDir, APPLIED_MARKER } from './worktree.js';
export { fileDiff, listDiffFiles, FILE_INLINE_MAX_BYTES } from './file-diff.js';
export type { FileDiffRequest } from './file-diff.js';
export { storeWorkspacePatch, readSessionWorkspace, readSessionPatch, PATCH_ARTIFACT_EXTENSION } from './session-workspace.js';
export { diffSummarySha256 } from './summary-hash.js';
export { landWorkspace, reuseOrCaptureWorkspace, WORKSPACE_REUSE_MS } from './land.js';
export { handedOffContents } from './handed-off.js';
export { WorkspaceError } from './errors.js';
export { runGit, streamGit, gitLine } from './git.js';
