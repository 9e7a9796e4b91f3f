import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { IndexRow } from '../../../shared/session';
import { row } from '../test-support/fixtures';
import { flattenGroups, groupSessions, normalizeCwd, timeOf } from '../../../shared/resume-groups';

const at = (minute: number): string => new Date(Date.UTC(2026, 10, 29, 10, minute)).toISOString();

function shape(rows: IndexRow[]): Array<[string, string[]]> {
  return groupSessions(rows).map((group) => [group.cwd, group.sessions.map((session) => session.id)]);
}

describe('groupSessions', () => {
  const cases: Array<{ name: string; rows: IndexRow[]; expected: Array<[string, string[]]> }> = [
    { name: 'no rows, no groups', rows: [], expected: [] },
    { name: 'one row', rows: [row({ id: 'a', cwd: '/p/one' })], expected: [['/p/one', ['a']]] },
    {
      name: 'sessions newest first inside a group',
      rows: [row({ id: 'old', cwd: '/p', updatedAt: at(1) }), row({ id: 'new', cwd: '/p', updatedAt: at(9) }), row({ id: 'mid', cwd: '/p', updatedAt: at(5) })],
      expected: [['/p', ['new', 'mid', 'old']]],
    },
    {
      name: 'groups ordered by their newest session, not by size or name',
      rows: [
        row({ id: 'a1', cwd: '/a', updatedAt: at(1) }),
        row({ id: 'a2', cwd: '/a', updatedAt: at(2) }),
        row({ id: 'a3', cwd: '/a', updatedAt: at(3) }),
        row({ id: 'z1', cwd: '/z', updatedAt: at(8) }),
      ],
      expected: [
        ['/z', ['z1']],
        ['/a', ['a3', 'a2', 'a1']],
      ],
    },
    {
      name: 'a trailing separator is the same directory',
      rows: [row({ id: 'x', cwd: '/p/app/', updatedAt: at(2) }), row({ id: 'y', cwd: '/p/app', updatedAt: at(1) })],
      expected: [['/p/app', ['x', 'y']]],
    },
    {
      name: 'different case is a different directory (Linux paths are case-sensitive)',
      rows: [row({ id: 'x', cwd: '/p/App', updatedAt: at(2) }), row({ id: 'y', cwd: '/p/app', updatedAt: at(1) })],
      expected: [
        ['/p/App', ['x']],
        ['/p/app', ['y']],
      ],
    },
    {
      name: 'equal times: sessions by id, groups by directory, so the order never flickers',
      rows: [row({ id: 'b', cwd: '/q', updatedAt: at(1) }), row({ id: 'a', cwd: '/q', updatedAt: at(1) }), row({ id: 'c', cwd: '/p', updatedAt: at(1) })],
      expected: [
        ['/p', ['c']],
        ['/q', ['a', 'b']],
      ],
    },
    {
      name: 'an unparseable date sorts last instead of breaking the order',
      rows: [row({ id: 'bad', cwd: '/p', updatedAt: 'yesterday-ish' }), row({ id: 'good', cwd: '/p', updatedAt: at(1) })],
      expected: [['/p', ['good', 'bad']]],
    },
    {
      name: 'Windows paths group like any other',
      rows: [row({ id: 'w1', cwd: 'C:\\src\\app\\', updatedAt: at(3) }), row({ id: 'w2', cwd: 'C:\\src\\app', updatedAt: at(4) })],
      expected: [['C:\\src\\app', ['w2', 'w1']]],
    },
    {
      name: 'mixed offsets compare as instants, not as strings',
      rows: [row({ id: 'utc', cwd: '/p', updatedAt: '2026-11-29T10:30:00Z' }), row({ id: 'plus2', cwd: '/p', updatedAt: '2026-11-29T12:00:00+02:00' })],
      expected: [['/p', ['utc', 'plus2']]],
    },
  ];

  for (const testCase of cases) {
    it(testCase.name, () => {
      expect(shape(testCase.rows)).toEqual(testCase.expected);
    });
  }

  it('does not reorder the caller’s array', () => {
    const rows = [row({ id: 'a', updatedAt: at(1) }), row({ id: 'b', updatedAt: at(2) })];
    groupSessions(rows);
    expect(rows.map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('flattenGroups lists ids in display order', () => {
    const groups = groupSessions([row({ id: 'a1', cwd: '/a', updatedAt: at(1) }), row({ id: 'b1', cwd: '/b', updatedAt: at(5) }), row({ id: 'a2', cwd: '/a', updatedAt: at(3) })]);
    expect(flattenGroups(groups)).toEqual(['b1', 'a2', 'a1']);
  });

  it('keeps every row exactly once, with sorted groups and sessions (property)', () => {
    const arbRow = fc.record({
      id: fc.uuid(),
      cwd: fc.constantFrom('/a', '/a/', '/b', '/c/d', 'C:\\w', '/'),
      minute: fc.integer({ min: 0, max: 59 }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(arbRow, { selector: (r) => r.id, maxLength: 40 }), (specs) => {
        const rows = specs.map((spec) => row({ id: spec.id, cwd: spec.cwd, updatedAt: at(spec.minute) }));
        const groups = groupSessions(rows);
        expect(flattenGroups(groups).sort()).toEqual(rows.map((r) => r.id).sort());
        expect(new Set(groups.map((g) => g.cwd)).size).toBe(groups.length);
        for (let i = 1; i < groups.length; i++) expect(groups[i - 1]!.newestAt).toBeGreaterThanOrEqual(groups[i]!.newestAt);
        for (const group of groups) {
          for (const session of group.sessions) expect(normalizeCwd(session.cwd)).toBe(group.cwd);
          for (let i = 1; i < group.sessions.length; i++) {
            expect(timeOf(group.sessions[i - 1]!.updatedAt)).toBeGreaterThanOrEqual(timeOf(group.sessions[i]!.updatedAt));
          }
          expect(group.newestAt).toBe(timeOf(group.sessions[0]!.updatedAt));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('normalizeCwd', () => {
  const cases: Array<[string, string]> = [
    ['/p/app/', '/p/app'],
    ['/p/app//', '/p/app'],
    ['/p/app', '/p/app'],
    ['/', '/'],
    ['C:\\', 'C:\\'],
    ['C:\\src\\', 'C:\\src'],
    ['', ''],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => expect(normalizeCwd(input)).toBe(expected));
  }
});
