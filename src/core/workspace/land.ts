import type { SessionDoc } from '../../shared/session.js';
import type { WorkspaceSnapshot } from '../../shared/workspace.js';
import type { SessionStore } from '../store/types.js';
import { captureWorkspaceWithPatch, type CapturedWorkspace } from './capture.js';
import { storeWorkspacePatch } from './session-workspace.js';

/**
 * A workspace captured this recently when the session was landed is reused for the manifest
 * instead of being captured again (`baton handoff` lands and offers within a second; a large
 * patch would otherwise be produced twice). Older ones are captured afresh: the offer must
 * describe the disk as it is now.
 */
export const WORKSPACE_REUSE_MS = 5_000;

/** Stores the patch artifact and records the snapshot (with its patch ref) in session.json's `workspace`. */
export async function landWorkspace(store: SessionStore, session: SessionDoc, captured: CapturedWorkspace): Promise<SessionDoc> {
  const workspace = await storeWorkspacePatch(store, session.id, captured);
  // Already recorded as is (createSession's extra, and no patch ref to add): save a write.
  if (JSON.stringify(session.workspace) === JSON.stringify(workspace)) return session;
  return store.update(session.id, session.revision, (doc) => ({ ...doc, workspace }));
}

/** The session's workspace for a new manifest: the just-landed one, or a fresh capture stored the same way. */
export async function reuseOrCaptureWorkspace(store: SessionStore, session: SessionDoc, now = new Date()): Promise<WorkspaceSnapshot> {
  const stored = session.workspace;
  if (stored?.capturedAt && now.getTime() - Date.parse(stored.capturedAt) <= WORKSPACE_REUSE_MS) return stored;
  const captured = await captureWorkspaceWithPatch(session.cwd);
  const landed = await landWorkspace(store, session, captured);
  if (!landed.workspace) throw new Error(`Session ${session.id}: the workspace just landed is missing from session.json.`);
  return landed.workspace;
}
