import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from './line-diff.js';

/** Applies a unified diff made by unifiedDiff to `before` (to check the hunks are exact). */
function apply(before: string, diff: string): string {
  const a = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const out: string[] = [];
  let at = 0;
  for (const line of diff.split('\n').slice(2)) {
    const hunk = /^@@ -(\d+),(\d+) /.exec(line);
    if (hunk) {
      const start = Number(hunk[2]) === 0 ? Number(hunk[1]) : Number(hunk[1]) - 1;
      while (at < start) out.push(a[at++]!);
    } else if (line.startsWith(' ')) out.push(a[at++]!);
    else if (line.startsWith('-')) at++;
    else if (line.startsWith('+')) out.push(line.slice(1));
  }
  while (at < a.length) out.push(a[at++]!);
  return out.length ? `${out.join('\n')}\n` : '';
}

describe('unifiedDiff', () => {
  it('is empty for equal texts and marks a new file against /dev/null', () => {
    expect(unifiedDiff('f', 'a\n', 'a\n')).toBe('');
    expect(unifiedDiff('f', null, 'x\ny\n')).toBe('--- /dev/null\n+++ f\n@@ -0,0 +1,2 @@\n+x\n+y\n');
    expect(unifiedDiff('f', 'x\n', null)).toBe('--- f\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-x\n');
  });

  it('its hunks rebuild the new text from the old, for any pair of texts', () => {
    const lines = fc.array(fc.constantFrom('a', 'b', 'c', '{', '}', '  "x": 1,'), { maxLength: 30 });
    fc.assert(
      fc.property(lines, lines, (x, y) => {
        const before = x.length ? `${x.join('\n')}\n` : '';
        const after = y.length ? `${y.join('\n')}\n` : '';
        const diff = unifiedDiff('f', before, after);
        expect(diff === '' ? before : apply(before, diff)).toBe(after);
      }),
      { numRuns: 400 },
    );
  });
});
