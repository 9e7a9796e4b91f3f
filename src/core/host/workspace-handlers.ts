import { ErrorCode } from '../../shared/error-codes.js';
import type { RehydrateRequest, RehydrateResult, RehydrationLogEntry, WorkspaceSnapshot } from '../../shared/workspace.js';
import type { SessionStore } from '../store/types.js';
import { sshOriginOf } from '../../shared/ssh-origin.js';
import { commandTargetOf, terminalCommandFor } from '../terminal-command.js';
import {
  defaultWorktreeDir,
  fileDiff,
  listDiffFiles,
  planRehydration,
  readSessionPatch,
  readSessionWorkspace,
  rehydrateIntoWorktree,
  takeHandedOffVersion,
  verifyWorkspace,
} from '../workspace/index.js';

/**
 * The UI's workspace channels over the workspace module: status (verify + plan), the file list,
 * one file's two sides, and confirmed rehydration steps, each logged in session.json.
 */
export function createWorkspaceHandlers(store: SessionStore) {
  async function snapshotOf(sessionId: string): Promise<WorkspaceSnapshot> {
    const snapshot = await readSessionWorkspace(store, sessionId);
    if (!snapshot?.git) throw Object.assign(new Error(`Session ${sessionId} was handed off without a git workspace.`), { code: ErrorCode.NOT_FOUND });
    return snapshot;
  }

  async function log(sessionId: string, entries: RehydrationLogEntry[]): Promise<void> {
    await store.mutate(sessionId, (current) => ({ ...current, rehydrationLog: [...(current.rehydrationLog ?? []), ...entries] }));
  }

  /**
   * A session that came through `baton ssh` (issue 22): its host, and this computer's clone of the
   * same repository (same origin, the moved-directory search), looked for only when asked.
   */
  async function remoteWorkspace(sessionId: string, findClone = true): Promise<{ host: string; clone: string | null } | null> {
    const doc = await store.getSession(sessionId);
    const origin = sshOriginOf(doc);
    if (!origin) return null;
    if (!findClone) return { host: origin.host, clone: null };
    const known = (await store.list()).flatMap((row) => [row.cwd, row.gitRoot ?? row.cwd]);
    return { host: origin.host, clone: (await terminalCommandFor(commandTargetOf(doc), known)).movedTo };
  }

  return {
    async status({ sessionId }: { sessionId: string }) {
      const snapshot = await readSessionWorkspace(store, sessionId);
      if (!snapshot?.git) return { hasWorkspace: false, verification: null, plan: null };
      const remote = await remoteWorkspace(sessionId);
      if (remote) {
        // Checked against this computer's clone only; without one, nothing is offered (the diff still shows).
        if (remote.clone === null) return { hasWorkspace: true, verification: null, plan: null };
        const verification = await verifyWorkspace(snapshot, remote.clone);
        const repoRoot = verification.targetRoot ?? remote.clone;
        const reason = `The workspace is on ${remote.host}; a worktree can be made from this computer's clone at ${repoRoot}.`;
        return { hasWorkspace: true, verification, plan: { kind: 'worktree' as const, repoRoot, head: snapshot.git.head, defaultDir: defaultWorktreeDir(repoRoot, sessionId), reason } };
      }
      const verification = await verifyWorkspace(snapshot, snapshot.git.root);
      return { hasWorkspace: true, verification, plan: planRehydration(verification, snapshot, sessionId) };
    },

    async diff({ sessionId }: { sessionId: string }) {
      return listDiffFiles(await snapshotOf(sessionId));
    },

    async file({ sessionId, path, against, full }: { sessionId: string; path: string; against?: 'head' | 'disk'; full?: boolean }) {
      const snapshot = await snapshotOf(sessionId);
      // A remote workspace's files are not on this disk: its diff is the carried patch against HEAD.
      const side = (await remoteWorkspace(sessionId, false)) ? 'head' : against;
      return fileDiff({ snapshot, patch: await readSessionPatch(store, sessionId, snapshot), path, against: side, full });
    },

    async rehydrate(request: RehydrateRequest): Promise<RehydrateResult> {
      const snapshot = await snapshotOf(request.sessionId);
      // A workspace on a remote box (baton ssh, issue 22): its remote path is never written to
      // here. A worktree is made only from a clone of the same repository that this computer has
      // (same origin, the moved-directory search); taking one file back has no local file to take.
      const remote = await remoteWorkspace(request.sessionId, request.action !== 'take-file');
      const localClone = remote?.clone ?? null;
      if (remote && localClone === null) {
        throw Object.assign(new Error(`The workspace of session ${request.sessionId} is on ${remote.host}${request.action === 'take-file' ? '' : ', and this computer has no clone of its repository'}; continue it there (Continue in terminal prints the ssh line).`), { code: 'REMOTE_WORKSPACE' });
      }
      if (request.action === 'take-file') {
        const entry = await takeHandedOffVersion(store, request.sessionId, request.path, { expected: snapshot });
        await log(request.sessionId, [entry]);
        return { log: [entry] };
      }
      const patch = await readSessionPatch(store, request.sessionId, snapshot);
      if (!patch) throw Object.assign(new Error(`The patch of session ${request.sessionId} was too large to store; a worktree cannot be made from it.`), { code: ErrorCode.NOT_FOUND });
      // The repository may be found elsewhere on this machine (a clone at another path).
      const verification = await verifyWorkspace(snapshot, localClone ?? snapshot.git!.root);
      const repoRoot = verification.targetRoot ?? localClone ?? snapshot.git!.root;
      const targetDir = request.targetDir ?? defaultWorktreeDir(repoRoot, request.sessionId);
      const result = await rehydrateIntoWorktree(repoRoot, snapshot.git!.head, patch, targetDir);
      await log(request.sessionId, result.log);
      return result;
    },
  };
}
