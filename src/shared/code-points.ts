/**
 * True when `text` is at most `max` code points long (a surrogate pair counts once, a lone
 * surrogate once), as zod's string min/max measure; counted only past `max` UTF-16 units.
 */
export function codePointsWithin(text: string, max: number): boolean {
  if (text.length <= max) return true;
  let n = 0;
  for (const _ of text) if (++n > max) return false;
  return true;
}
