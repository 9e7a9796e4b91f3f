import { describe, expect, it } from 'vitest';
import { groupSessions } from '../../../shared/resume-groups';
import { row } from '../test-support/fixtures';
import { keepOrder } from './keep-order';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 30, 12, minute)).toISOString();
const order = (groups: ReturnType<typeof groupSessions>) => groups.map((g) => `${g.cwd}: ${g.sessions.map((r) => r.id).join(' ')}`);

describe('keepOrder (the list does not re-sort while hovered)', () => {
  const before = groupSessions([row({ id: 'a1', cwd: '/a', updatedAt: at(5) }), row({ id: 'a2', cwd: '/a', updatedAt: at(4) }), row({ id: 'b1', cwd: '/b', updatedAt: at(3) })]);

  it('a session that becomes the newest stays where it was, with its fresh contents', () => {
    const next = groupSessions([row({ id: 'a1', cwd: '/a', updatedAt: at(5) }), row({ id: 'a2', cwd: '/a', updatedAt: at(4) }), row({ id: 'b1', cwd: '/b', updatedAt: at(9), title: 'renamed' })]);
    expect(order(next)).toEqual(['/b: b1', '/a: a1 a2']);
    const kept = keepOrder(before, next);
    expect(order(kept)).toEqual(['/a: a1 a2', '/b: b1']);
    expect(kept[1]!.sessions[0]!.title).toBe('renamed');
  });

  it('new rows go to the end of their group, new groups to the end, removed ones leave', () => {
    const next = groupSessions([row({ id: 'a0', cwd: '/a', updatedAt: at(8) }), row({ id: 'a1', cwd: '/a', updatedAt: at(5) }), row({ id: 'c1', cwd: '/c', updatedAt: at(7) })]);
    expect(order(keepOrder(before, next))).toEqual(['/a: a1 a0', '/c: c1']);
  });

  it('with nothing shown before, the real order', () => {
    expect(order(keepOrder([], before))).toEqual(order(before));
  });
});
