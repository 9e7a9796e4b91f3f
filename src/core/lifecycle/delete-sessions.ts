import { join } from 'node:path';
import { ApprovalLog, APPROVALS_FILE } from '../approvals/approval-log.js';
import { TaskFiles } from '../tasks/task-files.js';
import { receiptsOf } from '../store/delete-session.js';
import { nodeDurableFs } from '../fs/index.js';
import type { SessionStore } from '../store/types.js';
import { pathBytes } from './disk-usage.js';

/**
 * `baton delete` and the UI's Delete: what will go (named in the confirmation), what holds the
 * session (a running task, a pending approval: refused unless forced), then the store's crash-safe
 * delete. Only Baton's data directory is touched: an imported session's source file in
 * ~/.claude or ~/.codex stays where it is.
 */
export interface DeletePlan {
  sessionId: string;
  title: string;
  state: 'live' | 'archived';
  messageCount: number;
  bytes: number;
  receipts: number;
  /** Why the session should not go now (empty: nothing holds it). */
  blockers: string[];
}

export async function planDelete(store: SessionStore, dataDir: string, sessionId: string): Promise<DeletePlan> {
  const doc = await store.getSession(sessionId);
  const dir = store.sessionDir(sessionId);
  const blockers: string[] = [];
  const tasks = new TaskFiles(dataDir);
  for (const id of await tasks.ids()) {
    const task = await tasks.read(id).catch(() => undefined);
    if (task?.sessionId === sessionId && task.state === 'running') blockers.push(`task ${id} (${task.command.slice(0, 60)}) is running`);
  }
  const { records } = await new ApprovalLog(join(dir, APPROVALS_FILE)).read().catch(() => ({ records: [] }));
  const decided = new Set(records.filter((r) => r.type === 'decision').map((r) => (r as { requestId: string }).requestId));
  const pending = records.filter((r) => r.type === 'request' && !decided.has((r as { requestId: string }).requestId)).length;
  if (pending > 0) blockers.push(`${pending} approval request${pending === 1 ? '' : 's'} pending`);
  return {
    sessionId,
    title: doc.title,
    state: doc.archived ? 'archived' : 'live',
    messageCount: doc.messageCount,
    bytes: await pathBytes(dir),
    receipts: (await receiptsOf(nodeDurableFs, store.root, sessionId)).length,
    blockers,
  };
}

export interface DeleteOutcome {
  deleted: DeletePlan[];
  refused: Array<{ sessionId: string; code: 'BUSY' | 'NOT_FOUND'; message: string }>;
}

/** Deletes each session unless something holds it (or `force`); one refusal does not stop the others. */
export async function deleteSessions(store: SessionStore, dataDir: string, ids: readonly string[], options: { force: boolean }): Promise<DeleteOutcome> {
  const outcome: DeleteOutcome = { deleted: [], refused: [] };
  for (const id of ids) {
    let plan: DeletePlan;
    try {
      plan = await planDelete(store, dataDir, id);
    } catch (error) {
      if ((error as { code?: string }).code !== 'NOT_FOUND') throw error;
      outcome.refused.push({ sessionId: id, code: 'NOT_FOUND', message: `No session ${id}.` });
      continue;
    }
    if (plan.blockers.length > 0 && !options.force) {
      outcome.refused.push({ sessionId: id, code: 'BUSY', message: `Session ${id} is in use: ${plan.blockers.join('; ')}. Use --force to delete it anyway.` });
      continue;
    }
    await store.delete(id);
    outcome.deleted.push(plan);
  }
  return outcome;
}
