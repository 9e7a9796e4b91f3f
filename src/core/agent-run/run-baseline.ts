import type { SessionDoc } from '../../shared/session.js';
import type { SessionStore } from '../store/types.js';
import { captureWorkspaceWithPatch } from '../workspace/capture.js';
import { storeWorkspacePatch } from '../workspace/session-workspace.js';

export type RunBaseline = { kind: 'kept' } | { kind: 'captured'; files: number } | { kind: 'none'; reason: string };

/**
 * Before the first desktop run of a session that carries no workspace (an imported one), the
 * session's working directory is captured with the handoff's own capture (HEAD, every dirty file
 * with its hash, the patch) and kept as the session's `workspace`. The Changes tab then compares
 * the disk with it as the agent edits (drift), so each file the run changed shows as a real diff
 * against the baseline. A session that already has a workspace keeps it; a directory outside git
 * has nothing to compare against. Never writes the person's tree or index.
 */
export async function captureRunBaseline(store: SessionStore, session: SessionDoc): Promise<RunBaseline> {
  if (session.workspace?.git) return { kind: 'kept' };
  const captured = await captureWorkspaceWithPatch(session.cwd);
  if (!captured.snapshot.git) return { kind: 'none', reason: `${session.cwd} is not in a git repository` };
  const workspace = await storeWorkspacePatch(store, session.id, captured);
  // Only set when still unset: a handoff that landed meanwhile wins.
  await store.mutate(session.id, (current) => (current.workspace?.git ? undefined : { ...current, workspace }));
  return { kind: 'captured', files: workspace.git!.files.length };
}
