import type { TaskState } from '../../../../shared/tasks';
import type { UiResponse } from '../../../../shared/ui-contract';

export type TaskView = UiResponse<'tasks:list'>[number];

export interface TaskDisplay {
  state: TaskState;
  /** Lease left now (ms), counted down locally from the value at fetch time; null once finished. */
  leaseLeftMs: number | null;
  /** Why the chip is not what the host last said, or what the state means here. */
  note: string | null;
}

/**
 * The state to show for a task `elapsedMs` after it was fetched. The host's word is the floor:
 * it is never shown as running when the host says orphaned or its process is gone, and between
 * fetches the lease keeps counting down here (two missed heartbeats = stale, lease out = orphaned)
 * so the chip does not claim more than the host would.
 */
export function displayTask(view: TaskView, elapsedMs: number): TaskDisplay {
  const { state, leaseRemainingMs, processAlive, record } = view;
  if (state === 'completed' || state === 'failed') return { state, leaseLeftMs: null, note: null };
  const leaseLeftMs = leaseRemainingMs === null ? null : leaseRemainingMs - Math.max(0, elapsedMs);
  if (state === 'orphaned') return { state, leaseLeftMs, note: 'The agent stopped renewing its lease; Baton has fenced it off.' };
  if (processAlive === false) return { state: state === 'running' ? 'stale' : state, leaseLeftMs, note: 'Its process is gone.' };
  if (leaseLeftMs !== null && leaseLeftMs <= 0) return { state: 'orphaned', leaseLeftMs, note: 'The lease ran out.' };
  // Heartbeats are due every TTL/3: less than a third left means two were missed.
  if (state === 'running' && leaseLeftMs !== null && leaseLeftMs < record.leaseTtlMs / 3) return { state: 'stale', leaseLeftMs, note: 'Heartbeats are late.' };
  return { state, leaseLeftMs, note: state === 'stale' ? 'Heartbeats are late.' : null };
}

/** "12 s", "4 min 05 s", "expired". */
export function formatLease(ms: number | null): string {
  if (ms === null) return '—';
  if (ms <= 0) return 'expired';
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

export function isLive(state: TaskState): boolean {
  return state === 'running' || state === 'stale';
}
