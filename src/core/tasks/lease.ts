import type { TaskRecord, TaskState } from '../../shared/tasks.js';

/**
 * The state a task is in *now*, from its record and the clock: running while heartbeats arrive,
 * stale after two missed ones (no heartbeat for 2/3 of the TTL), orphaned once the lease has
 * expired. Pure, so the UI, the socket and the sweep agree on one rule.
 */
export function stateAt(record: TaskRecord, nowMs: number): { state: TaskState; leaseRemainingMs: number | null } {
  if (record.state === 'completed' || record.state === 'failed') return { state: record.state, leaseRemainingMs: null };
  const remaining = Date.parse(record.leaseExpiresAt) - nowMs;
  if (record.state === 'orphaned' || remaining <= 0) return { state: 'orphaned', leaseRemainingMs: remaining };
  const sinceBeat = nowMs - Date.parse(record.lastHeartbeatAt);
  if (sinceBeat > (2 * record.leaseTtlMs) / 3) return { state: 'stale', leaseRemainingMs: remaining };
  return { state: 'running', leaseRemainingMs: remaining };
}
