import type { TaskRecord } from '../../../../shared/tasks';
import type { TaskView } from './task-display';

/** A valid task view for tests; `record` and view fields override separately. */
export function taskView(record: Partial<TaskRecord> = {}, view: Partial<Omit<TaskView, 'record'>> = {}): TaskView {
  return {
    record: {
      schemaVersion: 1,
      id: 'task-1',
      sessionId: 's1',
      kind: 'dev-server',
      command: 'npm run dev',
      pid: 4242,
      pidStartTime: '123',
      port: 5173,
      logPath: '/tmp/dev.log',
      recoverable: true,
      state: 'running',
      epoch: 1,
      leaseTtlMs: 30_000,
      lastHeartbeatAt: '2026-11-29T10:00:00.000Z',
      leaseExpiresAt: '2026-11-29T10:00:30.000Z',
      createdAt: '2026-11-29T09:00:00.000Z',
      updatedAt: '2026-11-29T10:00:00.000Z',
      revision: 1,
      registrationSha256: 'a'.repeat(64),
      outcome: null,
      delivery: null,
      ...record,
    },
    state: 'running',
    leaseRemainingMs: 25_000,
    processAlive: true,
    ...view,
  };
}
