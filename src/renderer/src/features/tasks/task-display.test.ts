import { describe, expect, it } from 'vitest';
import { displayTask, formatLease, isLive, type TaskView } from './task-display';
import { taskView } from './task-fixture';

describe('displayTask', () => {
  const ttl = 30_000;
  const cases: Array<[string, Partial<TaskView>, number, string, string | null]> = [
    ['running, fresh lease', { state: 'running', leaseRemainingMs: 29_000, processAlive: true }, 0, 'running', null],
    ['running, counted down past two heartbeats', { state: 'running', leaseRemainingMs: 12_000, processAlive: true }, 3_000, 'stale', 'Heartbeats are late.'],
    ['running, lease runs out between fetches', { state: 'running', leaseRemainingMs: 2_000, processAlive: null }, 2_500, 'orphaned', 'The lease ran out.'],
    ['host says orphaned', { state: 'orphaned', leaseRemainingMs: -100, processAlive: true }, 0, 'orphaned', 'The agent stopped renewing its lease; Baton has fenced it off.'],
    ['process gone: never running', { state: 'running', leaseRemainingMs: 29_000, processAlive: false }, 0, 'stale', 'Its process is gone.'],
    ['host says stale', { state: 'stale', leaseRemainingMs: 5_000, processAlive: null }, 0, 'stale', 'Heartbeats are late.'],
    ['completed', { state: 'completed', leaseRemainingMs: null, processAlive: false }, 0, 'completed', null],
    ['failed', { state: 'failed', leaseRemainingMs: null, processAlive: null }, 99_000, 'failed', null],
  ];
  for (const [name, overrides, elapsed, state, note] of cases) {
    it(name, () => {
      const shown = displayTask(taskView({ leaseTtlMs: ttl }, overrides), elapsed);
      expect(shown.state).toBe(state);
      expect(shown.note).toBe(note);
    });
  }

  it('counts the lease down from the value at fetch time', () => {
    expect(displayTask(taskView({}, { leaseRemainingMs: 20_000 }), 5_000).leaseLeftMs).toBe(15_000);
    expect(displayTask(taskView({}, { state: 'completed', leaseRemainingMs: null }), 5_000).leaseLeftMs).toBeNull();
  });

  it('formatLease and isLive', () => {
    expect([null, 0, 999, 12_000, 245_000, 3_700_000].map(formatLease)).toEqual(['—', 'expired', '1 s', '12 s', '4 min 05 s', '1 h 01 min']);
    expect(['running', 'stale', 'orphaned', 'completed', 'failed'].map((s) => isLive(s as TaskView['state']))).toEqual([true, true, false, false, false]);
  });
});
