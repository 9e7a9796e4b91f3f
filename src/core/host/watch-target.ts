import { join } from 'node:path';
import type { SessionStore } from '../store/types.js';
import { readSessionWorkspace, verifyWorkspace } from '../workspace/index.js';
import type { WatchTarget } from '../watch/session-watches.js';
import { changedPaths } from '../handoff/handoff-facts.js';
import { sshOriginOf } from '../../shared/ssh-origin.js';

/**
 * The files to watch for a session: its handed-off files, under the repository root found on
 * this machine (a clone elsewhere counts), or null when it has no git workspace here (none, or
 * one on a remote box).
 */
export async function watchTargetOf(store: SessionStore, sessionId: string): Promise<WatchTarget | null> {
  // A workspace on a remote box (baton ssh, issue 22) has nothing on this machine to watch.
  if (sshOriginOf(await store.getSession(sessionId))) return null;
  const snapshot = await readSessionWorkspace(store, sessionId);
  if (!snapshot?.git) return null;
  const verification = await verifyWorkspace(snapshot, snapshot.git.root);
  const root = verification.targetRoot ?? snapshot.git.root;
  return { root, files: changedPaths(snapshot).map((path) => join(root, path)) };
}
