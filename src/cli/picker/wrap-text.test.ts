import { wrapAnsi as fastWrapAnsi } from 'fast-wrap-ansi';
import { describe, expect, it } from 'vitest';
import { wrapAnsi } from './wrap-text.js';

/** A deterministic pseudo-random source (a linear congruential generator): the same texts at every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

// One-column characters (clack's frame and markers, the picker's `…` and `·`), colours, spaces,
// and what must go to fast-wrap-ansi: wide, combining, emoji, a carriage return, a tab, a control.
const NARROW = ['a', 'Z', '7', ' ', ' ', '  ', '│', '◆', '●', '…', '·', '↑', 'é', '\u001b[2m', '\u001b[22m', '\u001b[38;5;245m', '\u001b[39m', '\u001b[m'];
const OTHER = ['漢', 'e\u0301', '🙂', '\r', '\t', '\u0007', '\u001b]8;;https://x\u0007'];

function text(random: () => number, lines: number, length: number, other: boolean): string {
  const out: string[] = [];
  for (let l = 0; l < lines; l++) {
    let line = '';
    const n = Math.floor(random() * length);
    for (let i = 0; i < n; i++) line += other && random() < 0.1 ? OTHER[Math.floor(random() * OTHER.length)] : NARROW[Math.floor(random() * NARROW.length)];
    out.push(line);
  }
  return out.join(random() < 0.1 ? '\r\n' : '\n');
}

const OPTIONS = [undefined, { hard: true, trim: false }, { trim: false }, { hard: true }, { trim: false, wordWrap: false }, { hard: true, trim: false, wordWrap: false }, {}] as const;

describe('wrapAnsi (clack\'s, wrap-text.ts)', () => {
  it('answers as fast-wrap-ansi for every option set, fitting or not, narrow or not', () => {
    const random = seeded(17);
    for (let round = 0; round < 3000; round++) {
      const columns = 1 + Math.floor(random() * 40);
      const input = text(random, 1 + Math.floor(random() * 4), columns + 8, random() < 0.3);
      for (const options of OPTIONS) expect(wrapAnsi(input, columns, options), JSON.stringify({ input, columns, options })).toBe(fastWrapAnsi(input, columns, options));
    }
  });

  it('answers as fast-wrap-ansi at the edges: a line exactly as wide as the terminal, one wider, trailing spaces, empty lines, no columns', () => {
    const cases: Array<[string, number]> = [
      ['abc def', 7],
      ['abc def', 6],
      ['abc def ', 7],
      [' abc', 4],
      ['\u001b[2mabc\u001b[22m def', 7],
      ['\u001b[2mabc def', 6],
      ['', 5],
      ['\n\n', 5],
      ['abc', 0],
      ['abc', Number.NaN],
      ['a\u0301bc', 3],
    ];
    for (const [input, columns] of cases) for (const options of OPTIONS) expect(wrapAnsi(input, columns, options), JSON.stringify({ input, columns, options })).toBe(fastWrapAnsi(input, columns, options));
  });
});
