import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fileChangeOf, lineDiff, MAX_DIFF_LINES, requestSubject } from './file-change';
import { formatTimeLeft, msUntil } from './time-left';

describe('fileChangeOf', () => {
  it('Edit: old_string / new_string', () => {
    expect(fileChangeOf({ file_path: '/p/a.ts', old_string: 'a', new_string: 'b' })).toEqual({ path: '/p/a.ts', kind: 'edit', edits: [{ oldText: 'a', newText: 'b' }] });
  });
  it('MultiEdit: every well-formed edit, malformed ones skipped', () => {
    const change = fileChangeOf({ file_path: '/p/a.ts', edits: [{ old_string: 'x', new_string: 'y' }, { old_string: 3 }, { old_string: '1', new_string: '2' }] });
    expect(change?.edits).toEqual([
      { oldText: 'x', newText: 'y' },
      { oldText: '1', newText: '2' },
    ]);
  });
  it('Write: the whole content as added', () => {
    expect(fileChangeOf({ file_path: '/p/new.md', content: '# hi\n' })).toEqual({ path: '/p/new.md', kind: 'write', edits: [{ oldText: '', newText: '# hi\n' }] });
  });
  it('not a file write', () => {
    expect(fileChangeOf({ command: 'npm test' })).toBeNull();
    expect(fileChangeOf({ file_path: '/p/a', old_string: 'only one side' })).toBeNull();
  });
});

describe('lineDiff', () => {
  it('keeps common lines, marks removed and added', () => {
    expect(lineDiff('a\nb\nc\n', 'a\nB\nc\nd\n')).toEqual([
      { op: ' ', text: 'a' },
      { op: '-', text: 'b' },
      { op: '+', text: 'B' },
      { op: ' ', text: 'c' },
      { op: '+', text: 'd' },
    ]);
  });
  it('empty sides', () => {
    expect(lineDiff('', '')).toEqual([]);
    expect(lineDiff('', 'x')).toEqual([{ op: '+', text: 'x' }]);
    expect(lineDiff('x', '')).toEqual([{ op: '-', text: 'x' }]);
  });
  it('over the limit: replace-all instead of a huge table', () => {
    const big = Array.from({ length: MAX_DIFF_LINES + 1 }, (_, i) => `l${i}`).join('\n');
    const diff = lineDiff(big, 'x');
    expect(diff.filter((l) => l.op === '-')).toHaveLength(MAX_DIFF_LINES + 1);
    expect(diff[diff.length - 1]).toEqual({ op: '+', text: 'x' });
  });
  it('old side = kept + removed lines, new side = kept + added lines (property)', () => {
    const lines = fc.array(fc.constantFrom('a', 'b', 'c', 'd', ''), { maxLength: 25 });
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const diff = lineDiff(a.join('\n'), b.join('\n'));
        const oldSide = diff.filter((l) => l.op !== '+').map((l) => l.text).join('\n');
        const newSide = diff.filter((l) => l.op !== '-').map((l) => l.text).join('\n');
        expect(oldSide).toBe(a.join('\n').replace(/\n$/, ''));
        expect(newSide).toBe(b.join('\n').replace(/\n$/, ''));
      }),
      { numRuns: 300 },
    );
  });
});

describe('requestSubject', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['Bash', { command: 'npm test' }, 'npm test'],
    ['Edit', { file_path: '/p/a.ts', old_string: '', new_string: '' }, '/p/a.ts'],
    ['WebFetch', { url: 'https://example.com' }, 'https://example.com'],
    ['Mystery', { x: 1 }, 'Mystery'],
  ];
  for (const [tool, input, expected] of cases) it(tool, () => expect(requestSubject(tool, input)).toBe(expected));
});

describe('time left', () => {
  const cases: Array<[number, string]> = [
    [0, 'expired'],
    [-5, 'expired'],
    [Number.NaN, 'expired'],
    [1, '0:01'],
    [59_001, '1:00'],
    [299_000, '4:59'],
    [3_599_000, '59:59'],
    [3_600_001, '1 h 00 min'],
    [3_900_000, '1 h 05 min'],
  ];
  for (const [ms, expected] of cases) it(`${ms} ms → ${expected}`, () => expect(formatTimeLeft(ms)).toBe(expected));

  it('msUntil', () => {
    expect(msUntil('2026-11-29T10:00:10.000Z', Date.parse('2026-11-29T10:00:00.000Z'))).toBe(10_000);
    expect(msUntil('garbage', 0)).toBe(Number.NEGATIVE_INFINITY);
  });
});
