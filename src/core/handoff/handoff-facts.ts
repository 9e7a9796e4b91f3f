import type { Capability, Manifest } from '../../shared/manifest.js';
import type { SessionDoc } from '../../shared/session.js';
import type { SessionTaskSummary } from '../../shared/session-fields/tasks.js';
import { canonicalJson } from '../hash.js';
import type { SessionStore } from '../store/types.js';
import { createTaskService } from '../tasks/task-service.js';
import { manifestTasksOf, toSessionTasks, type ManifestTaskEntry } from '../tasks/manifest-tasks.js';
import type { WorkspaceSnapshot } from '../workspace/capture.js';
import { deriveCapabilities } from './manifest-capabilities.js';
import { storeCarriedModel } from './manifest-model.js';
import { carriedPermission, storeCarriedPermission } from './manifest-permissions.js';
import { readApprovalFacts } from './session-approvals.js';

/**
 * Every path the workspace changed beyond HEAD. `files` (from the diff) can miss a change that git
 * status sees (a same-size edit within the second of the last index write), so the lists are joined.
 */
export function changedPaths(workspace: WorkspaceSnapshot): string[] {
  const git = workspace.git;
  if (!git) return [];
  return [...new Set([...(git.files ?? []).map((f) => f.path), ...git.dirtyFiles, ...git.untrackedFiles])].sort();
}

/** The manifest fields that come from the session's state beyond its messages and workspace. */
export interface HandoffFacts {
  capabilities: Capability[];
  tasks: ManifestTaskEntry[];
  permission: { mode: string; rules_sha256: string; rules_ref: string };
  /** The model configuration, stored as an artifact by hash; null when the session names no model. */
  model?: { name: string; settings_ref: string; settings_sha256: string } | null;
}

/**
 * Reads what the session holds besides messages (ARCHITECTURE.md §1): its pending approvals and
 * grants, its registered tasks and the tasks found in an imported transcript, and its permission
 * state, which it stores as an artifact by hash. session.json's `tasks` is brought up to date, so
 * the target lists the same tasks the manifest names.
 */
export async function gatherHandoffFacts(store: SessionStore, session: SessionDoc, workspace: WorkspaceSnapshot): Promise<HandoffFacts> {
  // The approvals log and the task files are read side by side: neither depends on the other.
  const service = createTaskService({ dataDir: store.root, sweepIntervalMs: 0 });
  const [approvals, views] = await Promise.all([readApprovalFacts(store, session.id), service.list({ sessionId: session.id }).finally(() => service.close())]);
  const imported = (session.tasks ?? []).filter((t) => t.origin !== 'baton');
  const summaries: SessionTaskSummary[] = [...imported.filter((t) => !views.some((v) => v.record.id === t.id)), ...toSessionTasks(views)];
  let current = session;
  if (canonicalJson(summaries) !== canonicalJson(session.tasks ?? [])) {
    current = await store.mutate(session.id, (doc) => ({ ...doc, tasks: summaries }));
  }
  const tasks = manifestTasksOf(views, imported);
  const permission = await storeCarriedPermission(store, current, carriedPermission(current, approvals.activeGrants));
  const capabilities = deriveCapabilities({
    changedFiles: changedPaths(workspace).length,
    pendingApprovals: approvals.pending,
    permissionMode: permission.mode,
    sourceMode: current.permission?.sourceMode ?? null,
    tasks: summaries.length,
  });
  const model = await storeCarriedModel(store, current);
  return { capabilities, tasks, permission, model };
}

/** Lease times move with every heartbeat; they do not make a task another task. */
function stableTasks(tasks: readonly Record<string, unknown>[]): unknown[] {
  return tasks.map(({ lease_expires_at: _lease, ...rest }) => rest);
}

/**
 * Whether a recorded manifest still tells the truth about these facts, so a re-offer may reuse
 * its handoff id (and be answered `duplicate`); a new task, approval state or rule needs a new one.
 */
export function factsMatch(previous: Manifest, facts: HandoffFacts): boolean {
  return (
    canonicalJson(previous.capabilities_required) === canonicalJson(facts.capabilities) &&
    canonicalJson(stableTasks(previous.background_tasks)) === canonicalJson(stableTasks(facts.tasks)) &&
    previous.permission_state.rules_sha256 === facts.permission.rules_sha256 &&
    previous.permission_state.mode === facts.permission.mode &&
    (previous.model?.settings_sha256 ?? null) === (facts.model?.settings_sha256 ?? null)
  );
}
