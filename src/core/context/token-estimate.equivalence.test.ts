import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countUnits } from './token-estimate.js';
import { referenceCountUnits } from './test-support/reference-count-units.js';

const ROOT = join(import.meta.dirname, '../../..');

/** Seeded, so a failure names a string that comes back on the next run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 2 ** 32;
  };
}

/** Pieces of every class the count tells apart, and the borders between them. */
const PIECES = [
  'the', 'Parser', 'x', 'aVeryLongIdentifierNameThatSpansTokens', 'snake_case_name', '0', '12', '123', '1234567', '3.14159',
  ' ', '  ', '\t', ' \t ', ' '.repeat(17), ' '.repeat(40), '\n', '\r\n', '\n\n\n', '\n    ', '\n\t\t', '\r', '\n ',
  '(', ');', '=>', '},', '!!!!!!!!!!!!', '...', '`', '"', "'", '{"a":1}', '#', '~', '\u007f', '\u0000', '\u0001', '\u001b[31m', '\u000b', '\u000c',
  '日本語', '中文字符', '한국어', 'Ünïcödé', 'é', '\u00a0', '\u2028', '—', '€', '😀', '👩‍💻', '🇫🇷', '\ud83d', '\ude00', '\udbff\udfff', '\ufeff',
];

function generated(count: number, seed: number): string[] {
  const next = random(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const parts = 1 + Math.floor(next() * 40);
    let text = '';
    for (let p = 0; p < parts; p++) text += PIECES[Math.floor(next() * PIECES.length)]!;
    out.push(text);
  }
  return out;
}

/** Real text: the repository's docs and sources, whole and cut at every few hundred characters. */
function realTexts(): string[] {
  const files = [
    ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(ROOT, 'docs', f)),
    ...readdirSync(join(ROOT, 'src/core/context')).filter((f) => f.endsWith('.ts')).map((f) => join(ROOT, 'src/core/context', f)),
    join(ROOT, 'package.json'),
  ];
  const out: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    out.push(text);
    for (let at = 0; at < text.length; at += 337) out.push(text.slice(at, at + 500));
  }
  return out;
}

describe('countUnits (table-driven) against the reference count', () => {
  it('agrees on 5,000 generated strings of letters, digits, blanks, newlines, punctuation, controls, CJK, emoji and lone surrogates', () => {
    const texts = generated(5_000, 20);
    let total = 0;
    for (const text of texts) {
      expect(countUnits(text), JSON.stringify(text)).toBe(referenceCountUnits(text));
      total += countUnits(text);
    }
    expect(total).toBeGreaterThan(50_000);
  });

  it('agrees on every single character and every pair of the ASCII range and a few beyond', () => {
    const chars: string[] = [];
    for (let c = 0; c < 160; c++) chars.push(String.fromCharCode(c));
    chars.push('日', '😀', '\ud83d', '\ude00', '\u2028');
    for (const a of chars) {
      expect(countUnits(a)).toBe(referenceCountUnits(a));
      for (const b of chars) expect(countUnits(a + b), JSON.stringify(a + b)).toBe(referenceCountUnits(a + b));
    }
  });

  it('agrees on the runs at their token borders (letters of 5–7, digits of 2–4, blanks of 15–17, punctuation of 7–9)', () => {
    for (let n = 0; n < 40; n++) {
      for (const unit of ['a', '7', ' ', '\t', '-', '\n', '\u0000', '日', '😀']) {
        for (const after of ['', 'x', ' ', '\n', '1', '.', '日']) {
          const text = unit.repeat(n) + after;
          expect(countUnits(text), JSON.stringify(text)).toBe(referenceCountUnits(text));
        }
      }
    }
  });

  it('agrees on real docs and sources, whole and cut into pieces', () => {
    const texts = realTexts();
    expect(texts.length).toBeGreaterThan(500);
    for (const text of texts) expect(countUnits(text)).toBe(referenceCountUnits(text));
  });

  it('counts known strings as the documented rules say', () => {
    expect(countUnits('')).toBe(0);
    expect(countUnits('abcdef')).toBe(1);
    expect(countUnits('abcdefg')).toBe(2);
    expect(countUnits('1234')).toBe(2);
    expect(countUnits('a b')).toBe(2);
    expect(countUnits('\n    return')).toBe(2);
    expect(countUnits('😀')).toBe(2);
    expect(countUnits('日本')).toBe(2);
  });
});
