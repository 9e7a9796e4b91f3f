import { describe, expect, it } from 'vitest';
import { collapse, COLLAPSE_MAX_CHARS, COLLAPSE_MAX_LINES, countLines, PREVIEW_LINES, summarizeInput } from './collapse';

describe('collapse', () => {
  it('short text is shown whole', () => {
    expect(collapse('hello\nworld')).toEqual({ long: false, preview: 'hello\nworld', lineCount: 2 });
  });

  it('too many lines: preview keeps the first lines', () => {
    const text = Array.from({ length: COLLAPSE_MAX_LINES + 5 }, (_, i) => `line ${i}`).join('\n');
    const result = collapse(text);
    expect(result.long).toBe(true);
    expect(result.lineCount).toBe(COLLAPSE_MAX_LINES + 5);
    expect(countLines(result.preview)).toBe(PREVIEW_LINES);
    expect(result.preview.endsWith('…')).toBe(true);
  });

  it('one very long line: preview is cut by characters', () => {
    const result = collapse('x'.repeat(COLLAPSE_MAX_CHARS + 1));
    expect(result.long).toBe(true);
    expect(result.preview.length).toBeLessThan(COLLAPSE_MAX_CHARS);
  });

  it('countLines', () => {
    expect(countLines('')).toBe(0);
    expect(countLines('a')).toBe(1);
    expect(countLines('a\n')).toBe(2);
    expect(countLines('a\nb\nc')).toBe(3);
  });
});

describe('summarizeInput', () => {
  const cases: Array<[string, unknown, string]> = [
    ['nothing', undefined, ''],
    ['null', null, ''],
    ['a string', 'ls -la', 'ls -la'],
    ['an object', { command: 'npm test', timeout: 30 }, 'command: npm test, timeout: 30'],
    ['nested', { edits: [{ file: 'a.ts' }] }, 'edits: [{"file":"a.ts"}]'],
    ['white space folded', { command: 'echo a\n  echo b' }, 'command: echo a echo b'],
    ['an array', [1, 2], '[1,2]'],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => expect(summarizeInput(input)).toBe(expected));
  }

  it('long input is cut with an ellipsis', () => {
    const text = summarizeInput({ command: 'x'.repeat(500) }, 40);
    expect(text).toHaveLength(40);
    expect(text.endsWith('…')).toBe(true);
  });

  it('a cycle does not throw', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(summarizeInput({ a: cyclic })).toContain('a:');
  });
});
