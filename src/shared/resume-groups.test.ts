import { describe, expect, it } from 'vitest';
import { groupByCwd } from './resume-groups.js';
import type { IndexRow } from './session.js';

const row = (id: string, cwd: string, updatedAt: string): IndexRow => ({
  id,
  cwd,
  gitRoot: null,
  branch: null,
  title: id,
  updatedAt,
  messageCount: 1,
  source: 'baton',
  holder: { who: 'terminal', epoch: 1 },
  parentId: null,
  archived: false,
});

describe('groupByCwd', () => {
  it('groups by cwd, newest session first, groups by their newest session', () => {
    const groups = groupByCwd([
      row('a1', '/a', '2026-01-01T00:00:00.000Z'),
      row('b1', '/b', '2026-01-03T00:00:00.000Z'),
      row('a2', '/a', '2026-01-02T00:00:00.000Z'),
      row('c1', '/c', '2025-12-31T00:00:00.000Z'),
    ]);
    expect(groups.map((g) => g.cwd)).toEqual(['/b', '/a', '/c']);
    expect(groups[1]!.sessions.map((s) => s.id)).toEqual(['a2', 'a1']);
    expect(groups[1]!.newest).toBe('2026-01-02T00:00:00.000Z');
  });

  it('returns no groups for no sessions', () => {
    expect(groupByCwd([])).toEqual([]);
  });
});
