import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../shared/tasks.js';
import { stateAt } from './lease.js';
import { parseProcStat } from './process-start-time.js';

const base = (over: Partial<TaskRecord> = {}): TaskRecord => ({
  schemaVersion: 1,
  id: 't',
  sessionId: null,
  kind: 'build',
  command: 'make',
  pid: null,
  pidStartTime: null,
  port: null,
  logPath: null,
  recoverable: false,
  state: 'running',
  epoch: 1,
  leaseTtlMs: 3_000,
  lastHeartbeatAt: new Date(0).toISOString(),
  leaseExpiresAt: new Date(3_000).toISOString(),
  createdAt: new Date(0).toISOString(),
  updatedAt: new Date(0).toISOString(),
  revision: 0,
  registrationSha256: 'x',
  outcome: null,
  delivery: null,
  ...over,
});

describe('lease states', () => {
  it.each([
    [0, 'running'],
    [1_000, 'running'],
    [2_001, 'stale'],
    [2_999, 'stale'],
    [3_000, 'orphaned'],
    [60_000, 'orphaned'],
  ])('at %i ms after the last heartbeat (TTL 3 s) → %s', (now, state) => {
    expect(stateAt(base(), now).state).toBe(state);
  });

  it('finished tasks stay finished; a stored orphan stays orphaned even with time left', () => {
    expect(stateAt(base({ state: 'completed' }), 99_999)).toEqual({ state: 'completed', leaseRemainingMs: null });
    expect(stateAt(base({ state: 'orphaned' }), 0).state).toBe('orphaned');
  });

  it('reads starttime from /proc/<pid>/stat even when the name has spaces and parentheses', () => {
    const fields = Array.from({ length: 50 }, (_, i) => String(i + 3));
    expect(parseProcStat(`123 (my (odd) name) ${fields.join(' ')}`)).toBe('ticks:22');
    expect(parseProcStat('garbage')).toBeNull();
  });
});
