import type { TaskView } from '../../shared/tasks.js';
import type { SessionTaskSummary } from '../../shared/session-fields/tasks.js';

/** One entry of the manifest's `background_tasks[]` (ARCHITECTURE.md §5). */
export interface ManifestTaskEntry {
  id: string;
  kind: string;
  command: string;
  port: number | null;
  pid: number | null;
  log_ref: string | null;
  lease_expires_at: string | null;
  recoverable: boolean;
  state: string;
  [key: string]: unknown;
}

/** The manifest's `background_tasks[]` (ARCHITECTURE.md §5): references only, never log contents. */
export function toManifestTasks(views: readonly TaskView[]): ManifestTaskEntry[] {
  return views
    .filter((v) => v.state !== 'completed' && v.state !== 'failed')
    .map((v) => ({
      id: v.record.id,
      kind: v.record.kind,
      command: v.record.command,
      port: v.record.port,
      pid: v.record.pid,
      log_ref: v.record.logPath,
      lease_expires_at: v.record.leaseExpiresAt,
      recoverable: v.record.recoverable,
      state: v.state,
    }));
}

/** Registered tasks as session.json's `tasks` summaries: {id, kind, command, pid, port, log, recoverable, state}. */
export function toSessionTasks(views: readonly TaskView[]): SessionTaskSummary[] {
  return views.map((v) => ({
    id: v.record.id,
    kind: v.record.kind,
    command: v.record.command,
    pid: v.record.pid,
    port: v.record.port,
    log: v.record.logPath,
    recoverable: v.record.recoverable,
    state: v.state,
    origin: 'baton',
  }));
}

/** States in which a task is over: it is in the conversation, not in the manifest's task list. */
const FINISHED_STATES: ReadonlySet<string> = new Set(['completed', 'failed', 'killed', 'exited']);

/**
 * The manifest's tasks of a session: its registered tasks (live views) and the background
 * shells or exec sessions found in an imported transcript (session.json `tasks`), each once.
 * Finished ones stay in the session's `tasks` with their state; unfinished ones are all listed.
 */
export function manifestTasksOf(views: readonly TaskView[], imported: readonly SessionTaskSummary[]): ManifestTaskEntry[] {
  const out = toManifestTasks(views);
  const seen = new Set(out.map((t) => t.id));
  const registered = new Set(views.map((v) => v.record.id));
  for (const task of imported) {
    if (seen.has(task.id) || registered.has(task.id) || FINISHED_STATES.has(task.state)) continue;
    seen.add(task.id);
    out.push({
      id: task.id,
      kind: task.kind,
      command: task.command,
      port: task.port ?? null,
      pid: task.pid ?? null,
      log_ref: task.log ?? null,
      lease_expires_at: null,
      recoverable: task.recoverable ?? false,
      state: task.state,
      ...(typeof task.origin === 'string' ? { origin: task.origin } : {}),
    });
  }
  return out;
}
