import fastStringWidth, { type Options } from 'fast-string-width';

/**
 * Characters one column wide that fast-string-width reaches only through its Unicode regexes
 * (Script=Han, Emoji, \p{M}): clack's frame and markers, and the picker's `…`, `↑↓`, dashes and
 * quotes. Printable ASCII and Latin-1 (U+0020-U+007E, U+00A0-U+00FF) are one column too (its
 * first, plain regex). Sorted [first, last] ranges. Test: text-width.test.ts checks each against
 * fast-string-width.
 */
export const ONE_COLUMN_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x20, 0x7e],
  [0xa0, 0xff],
  [0x2010, 0x2027], // dashes, quotes, `…`
  [0x2190, 0x2193], // ←↑→↓ (↔ and the diagonal arrows are emoji)
  [0x2500, 0x257f], // box drawing: clack's bars and corners
  [0x25a0, 0x25a0], // ■ cancelled
  [0x25b2, 0x25b2], // ▲ error
  [0x25c6, 0x25c7], // ◆◇ active, submitted
  [0x25cb, 0x25cb], // ○ inactive
  [0x25cf, 0x25cf], // ● active
];

/** The longest parameter of an SGR sequence fast-string-width takes whole (its ANSI_RE's `[0-9]{1,4}`). */
const SGR_PARAMETER_DIGITS = 4;

function oneColumn(code: number): boolean {
  for (const [first, last] of ONE_COLUMN_RANGES) {
    if (code < first) return false;
    if (code <= last) return true;
  }
  return false;
}

/** The end of the SGR sequence (`ESC [ 1;32 m`, no width) that starts at `at`, or -1 when there is none there of that simple shape. */
function sgrEnd(text: string, at: number): number {
  if (text.charCodeAt(at) !== 0x1b || text.charCodeAt(at + 1) !== 0x5b) return -1;
  let i = at + 2;
  let digits = 0;
  for (;;) {
    const code = text.charCodeAt(i);
    if (code >= 0x30 && code <= 0x39) {
      if (++digits > SGR_PARAMETER_DIGITS) return -1;
    } else if (code === 0x3b && i > at + 2) digits = 0;
    else return code === 0x6d ? i + 1 : -1;
    i += 1;
  }
}

/**
 * fast-string-width's answer, counted here when every character is one column wide or part of
 * an SGR colour sequence: clack measures every line and fast-wrap-ansi every character of its
 * first frame, and fast-string-width's Unicode regexes (compiled at their first use, so never in
 * the code cache) cost the picker's first screen ~5 ms (bench/README.md, eleventh sitting,
 * second round). Anything else (wide, emoji, combining, control, options) is its own to answer.
 * The build (scripts/build-cli.js narrowTextWidth) gives this to every bundled importer of
 * fast-string-width.
 */
export default function textWidth(text: string, options?: Options): number {
  if (options !== undefined) return fastStringWidth(text, options);
  let width = 0;
  for (let i = 0; i < text.length; ) {
    const code = text.charCodeAt(i);
    if (code === 0x1b) {
      const end = sgrEnd(text, i);
      if (end < 0) return fastStringWidth(text);
      i = end;
    } else if (oneColumn(code)) {
      width += 1;
      i += 1;
    } else return fastStringWidth(text);
  }
  return width;
}
