import { wrapAnsi as fastWrapAnsi } from 'fast-wrap-ansi';
import { narrowWidth } from './text-width.js';

type WrapOptions = Parameters<typeof fastWrapAnsi>[2];

/**
 * fast-wrap-ansi's wrapAnsi, answered without it when nothing needs wrapping: clack wraps its
 * whole frame to the terminal's width before every draw (`{ hard: true, trim: false }`), and
 * fast-wrap-ansi splits each line into words, re-measures each and copies the line character by
 * character even when every line fits: 2–8 ms of CPU before the picker's first frame (bench/
 * README.md, "Seventeenth sitting"). With `trim: false`, a line of one-column characters and
 * colour sequences no wider than `columns` comes back from it as it went in (no row is started,
 * no word is broken, no colour is closed at a line's end), after the same normalize() and the same
 * join by '\n'; so that case is answered here and every other (trimming, a carriage return, a wide
 * or combining character, a line too long) is fast-wrap-ansi's. The build (scripts/build-cli.js
 * narrowWrap) gives this to clack's modules. Test: wrap-text.test.ts compares the two.
 */
export function wrapAnsi(text: string, columns: number, options?: WrapOptions): string {
  const normalized = String(text).normalize();
  if (options?.trim === false && columns >= 1 && !normalized.includes('\r') && normalized.split('\n').every((line) => fits(line, columns))) return normalized;
  return fastWrapAnsi(text, columns, options);
}

function fits(line: string, columns: number): boolean {
  const width = narrowWidth(line);
  return width !== null && width <= columns;
}
