import fastStringWidth from 'fast-string-width';
import { describe, expect, it } from 'vitest';
import textWidth, { ONE_COLUMN_RANGES } from './text-width.js';

const SGR = ['\u001b[39m', '\u001b[2m', '\u001b[22m', '\u001b[38;5;245m', '\u001b[m', '\u001b[1;;4m'];

function oneColumnCharacters(): string[] {
  const out: string[] = [];
  for (const [first, last] of ONE_COLUMN_RANGES) for (let c = first; c <= last; c++) out.push(String.fromCharCode(c));
  return out;
}

/** A deterministic pseudo-random source (a linear congruential generator): the same strings at every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('textWidth', () => {
  it('counts each one-column character as fast-string-width does, alone and not emoji nor combining outside Latin-1', () => {
    for (const ch of oneColumnCharacters()) {
      expect(fastStringWidth(ch), `U+${ch.charCodeAt(0).toString(16)}`).toBe(1);
      if (ch.charCodeAt(0) > 0xff) expect(/\p{Emoji}|\p{Emoji_Presentation}|\p{Emoji_Modifier_Base}|\p{M}/u.test(ch), `U+${ch.charCodeAt(0).toString(16)}`).toBe(false);
    }
  });

  it('answers as fast-string-width for clack-like lines of one-column characters and colour sequences', () => {
    const chars = oneColumnCharacters();
    const random = seeded(15);
    for (let n = 0; n < 2000; n++) {
      let line = '';
      const length = Math.floor(random() * 120);
      for (let i = 0; i < length; i++) line += random() < 0.1 ? SGR[Math.floor(random() * SGR.length)] : chars[Math.floor(random() * chars.length)];
      expect(textWidth(line), JSON.stringify(line)).toBe(fastStringWidth(line));
    }
    const row = '\u001b[90m│\u001b[39m  \u001b[32m●\u001b[39m …/work/api-19                fix the “thing” — now \u001b[2m(claude · 2026-11-30 10:00 · 5 msgs)\u001b[22m';
    expect(textWidth(row)).toBe(fastStringWidth(row));
  });

  it('leaves wide, emoji, combining and control text, odd escape sequences and options to fast-string-width', () => {
    for (const text of ['日本語', 'ok 👍🏽', '◽', 'e\u0301', '1\ufe0f\u20e3', 'tab\there', '\u001b[12345m', '\u001b[?25l', '\u001b]8;;http://x\u0007link\u001b]8;;\u0007', '\u0085', '↔']) {
      expect(textWidth(text), JSON.stringify(text)).toBe(fastStringWidth(text));
    }
    expect(textWidth('ab\tc', { tabWidth: 4 })).toBe(fastStringWidth('ab\tc', { tabWidth: 4 }));
    expect(textWidth('日本')).toBe(4);
  });
});
