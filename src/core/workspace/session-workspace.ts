import { createHash } from 'node:crypto';
import type { WorkspaceSnapshot } from '../../shared/workspace.js';
import { ARTIFACTS_DIR, artifactName } from '../store/layout.js';
import type { NewArtifact, SessionStore } from '../store/types.js';
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

/**
 * The same snapshot and patch for a session not landed yet: the patch as an artifact of the
 * landing (written in its staging directory, so the session appears with it) and the snapshot
 * with the ref it gets there (putArtifact's name: `artifacts/<sha256>.patch`). session.json is
 * then written once with its workspace, not rewritten to add the ref (issue 20).
 */
export function landingWorkspacePatch(captured: CapturedWorkspace): { workspace: WorkspaceSnapshot; artifacts: NewArtifact[] } {
  const { snapshot, patchBytes } = captured;
  if (!snapshot.git?.patch || patchBytes === null) return { workspace: snapshot, artifacts: [] };
  const ref = `${ARTIFACTS_DIR}/${artifactName(createHash('sha256').update(patchBytes).digest('hex'), PATCH_ARTIFACT_EXTENSION)}`;
  return {
    workspace: { ...snapshot, git: { ...snapshot.git, patch: { ...snapshot.git.patch, ref } } },
    artifacts: [{ bytes: patchBytes, extension: PATCH_ARTIFACT_EXTENSION }],
  };
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
