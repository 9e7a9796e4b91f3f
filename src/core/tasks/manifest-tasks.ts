import type { TaskView } from '../../shared/tasks.js';

/** The manifest's `background_tasks[]` (ARCHITECTURE.md §5): references only, never log contents. */
export function toManifestTasks(views: readonly TaskView[]): Array<Record<string, unknown>> {
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
