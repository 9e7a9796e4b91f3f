import type { WorkspaceSnapshot } from '../../shared/workspace.js';
import type { SessionStore } from '../store/types.js';
import type { CapturedWorkspace } from './capture.js';

/** The artifact extension of stored patches (artifacts/<sha256>.patch). */
export const PATCH_ARTIFACT_EXTENSION = 'patch';

/**
 * Stores the captured patch under the session's artifacts/ (by hash, idempotent) and returns the
 * snapshot with `git.patch.ref` filled in, ready for session.json's `workspace` field. A patch
 * past the cap is not stored: its ref stays null and the snapshot carries the warning.
 */
export async function storeWorkspacePatch(store: SessionStore, sessionId: string, captured: CapturedWorkspace): Promise<WorkspaceSnapshot> {
  const { snapshot, patchBytes } = captured;
  if (!snapshot.git?.patch || patchBytes === null) return snapshot;
  const { ref } = await store.putArtifact(sessionId, patchBytes, PATCH_ARTIFACT_EXTENSION);
  return { ...snapshot, git: { ...snapshot.git, patch: { ...snapshot.git.patch, ref } } };
}

/** The handed-off workspace kept in session.json (`workspace`), or null when the session has none. */
export async function readSessionWorkspace(store: SessionStore, sessionId: string): Promise<WorkspaceSnapshot | null> {
  // session.json's `workspace` is validated by SessionDoc when the session is read.
  return (await store.getSession(sessionId)).workspace ?? null;
}

/** The stored patch bytes of a session's workspace, or null when it was too large to store. */
export async function readSessionPatch(store: SessionStore, sessionId: string, snapshot: WorkspaceSnapshot): Promise<Buffer | null> {
  const ref = snapshot.git?.patch?.ref;
  if (!ref) return null;
  return Buffer.from(await store.readArtifact(sessionId, ref));
}
