/**
 * JSON.stringify(value) as one flat string. V8 builds a stringify result longer than a few dozen
 * characters as a rope: its pieces (32, 64, 128 … characters) joined by cons-string nodes, each
 * with its own header. A text kept for long (the 100,000 list rows and extras a cold scan holds
 * until the index is written) then costs about 40 % more than its characters: 46 against 32 MB
 * for 100,000 texts of 300 characters (bench/README.md, issue 15, eleventh sitting).
 *
 * Reading a character makes V8 flatten the rope in place (one copy, which writing the text out
 * later makes anyway); the next scavenge drops the emptied cons node. The check on that character
 * is the text's own (stringify gives "{", "[", a quote, a digit, …; never an empty text), and it
 * keeps the read from being optimized away.
 */
export function flatJson(value: unknown): string {
  const text = JSON.stringify(value);
  if (text.charCodeAt(0) < 0x20) throw new Error('JSON.stringify gave no JSON text');
  return text;
}
