import {
  WorkspaceErrorCode,
  type DiffFileList,
  type FileDiff,
  type RehydrateRequest,
  type RehydrateResult,
  type RehydrationPlan,
  type WorkspaceVerification,
} from '../../shared/workspace.js';
import type { SessionStore } from '../store/types.js';
import { WorkspaceError } from './errors.js';
import { fileDiff, listDiffFiles } from './file-diff.js';
import { planRehydration } from './plan.js';
import { readSessionPatch, readSessionWorkspace } from './session-workspace.js';
import { takeHandedOffVersion } from './take-file.js';
import { verifyWorkspace } from './verify.js';
import { defaultWorktreeDir, rehydrateIntoWorktree } from './worktree.js';

export interface WorkspaceStatus {
  verification: WorkspaceVerification;
  plan: RehydrationPlan;
}

/**
 * The workspace side of the UI contract, bound to one store: what the hosts call for the status,
 * diff and rehydrate channels. Rehydration acts only on an explicit request (the person's
 * confirmation in the UI) and returns the log entries for the caller to append to the session.
 */
export interface WorkspaceService {
  status(sessionId: string): Promise<WorkspaceStatus>;
  files(sessionId: string): Promise<DiffFileList>;
  diff(sessionId: string, path: string, options?: { against?: 'head' | 'disk'; full?: boolean }): Promise<FileDiff>;
  rehydrate(request: RehydrateRequest): Promise<RehydrateResult>;
}

export function createWorkspaceService(store: SessionStore): WorkspaceService {
  const snapshotOf = async (sessionId: string) => {
    const snapshot = await readSessionWorkspace(store, sessionId);
    if (!snapshot) throw new WorkspaceError(WorkspaceErrorCode.NOT_IN_HANDOFF, `Session ${sessionId} was handed off without a workspace record.`, sessionId);
    return snapshot;
  };
  const status = async (sessionId: string): Promise<WorkspaceStatus> => {
    const snapshot = await snapshotOf(sessionId);
    const verification = await verifyWorkspace(snapshot, snapshot.git?.root ?? snapshot.cwd);
    return { verification, plan: planRehydration(verification, snapshot, sessionId) };
  };
  return {
    status,
    async files(sessionId) {
      return listDiffFiles(await snapshotOf(sessionId));
    },
    async diff(sessionId, path, options = {}) {
      const snapshot = await snapshotOf(sessionId);
      const patch = await readSessionPatch(store, sessionId, snapshot);
      return fileDiff({ snapshot, patch, path, ...options });
    },
    async rehydrate(request) {
      if (request.action === 'take-file') return { log: [await takeHandedOffVersion(store, request.sessionId, request.path)] };
      const snapshot = await snapshotOf(request.sessionId);
      const git = snapshot.git;
      if (!git) throw new WorkspaceError(WorkspaceErrorCode.NOT_A_REPOSITORY, 'The handed-off directory is not a git repository: there is no worktree to make.', snapshot.cwd);
      const patch = await readSessionPatch(store, request.sessionId, snapshot);
      if (patch === null && git.files.length > 0) {
        throw new WorkspaceError(WorkspaceErrorCode.PATCH_NOT_STORED, 'The handed-off patch was too large to store: commit or stash the changes at the source and hand off again.', git.root);
      }
      const { verification } = await status(request.sessionId);
      const repoRoot = verification.targetRoot ?? git.root;
      return rehydrateIntoWorktree(repoRoot, git.head, patch ?? Buffer.alloc(0), request.targetDir ?? defaultWorktreeDir(repoRoot, request.sessionId));
    },
  };
}
