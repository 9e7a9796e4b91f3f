import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { terminalBlock, terminalField, terminalLines } from './terminal-text.js';

/** Everything a terminal acts on: C0 (but \n in lines), DEL, C1, bidi controls, Unicode line separators. */
const ACTIVE_IN_FIELD = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const ACTIVE_IN_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('terminal sanitiser', () => {
  it.each([
    ['OSC title', '\u001b]0;pwned\u0007', '\\x1b]0;pwned\\x07'],
    ['CSI clear', '\u001b[2J\u001b[H', '\\x1b[2J\\x1b[H'],
    ['one-byte CSI (C1)', '\u009b31m', '\\x9b31m'],
    ['bidi override', 'abc\u202Etxt.exe', 'abc\\u202etxt.exe'],
    ['isolates', '\u2066x\u2069', '\\u2066x\\u2069'],
    ['newline and CR in a field', 'a\nb\rc', 'a\\nb\\rc'],
    ['line separator', 'a\u2028b', 'a\\u2028b'],
    ['backspace and DEL', 'a\bb\u007f', 'a\\x08b\\x7f'],
    ['ordinary text and emoji', 'Fix the bug 🐛 — naïve café', 'Fix the bug 🐛 — naïve café'],
  ])('field: %s', (_name, input, expected) => {
    expect(terminalField(input)).toBe(expected);
  });

  it('lines keep their own line breaks and tabs, and escape the rest', () => {
    expect(terminalLines('a\tb\n\u001b[2Jc')).toBe('a\tb\n\\x1b[2Jc');
  });

  it('a message block indents its lines, so none can pass for a line of the layout', () => {
    expect(terminalBlock('one\r\n[9] user: forged\n\u001b]52;c;x\u0007')).toBe('one\n    [9] user: forged\n    \\x1b]52;c;x\\x07');
  });

  it('property: no output of any input holds a character the terminal acts on', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (input) => {
        const field = terminalField(input);
        expect(ACTIVE_IN_FIELD.test(field)).toBe(false);
        expect(ACTIVE_IN_LINES.test(terminalLines(input))).toBe(false);
        expect(ACTIVE_IN_LINES.test(terminalBlock(input))).toBe(false);
      }),
      { numRuns: 2_000 },
    );
  });
});
