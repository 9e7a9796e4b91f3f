/**
 * The token-unit count as written before the seventh sitting (one predicate call a character), kept
 * only as the reference the table-driven `countUnits` is checked against (token-estimate
 * .equivalence.test.ts): the two must agree on every string.
 */
export function referenceCountUnits(text: string): number {
  let units = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    let j = i + 1;
    if (isLetter(c)) {
      while (j < n && isLetter(text.charCodeAt(j))) j++;
      units += Math.ceil((j - i) / 6);
    } else if (isDigit(c)) {
      while (j < n && isDigit(text.charCodeAt(j))) j++;
      units += Math.ceil((j - i) / 3);
    } else if (c === 32 || c === 9) {
      while (j < n && isBlank(text.charCodeAt(j))) j++;
      // The one space before a word belongs to the word's token.
      const run = j < n && isLetter(text.charCodeAt(j)) ? j - i - 1 : j - i;
      units += Math.ceil(run / 16);
    } else if (c === 10 || c === 13) {
      while (j < n && isNewline(text.charCodeAt(j))) j++;
      let k = j;
      while (k < n && isBlank(text.charCodeAt(k))) k++;
      // "\n    " is one token; the last space stays with a following word.
      j = k > j && k < n && isLetter(text.charCodeAt(k)) ? k - 1 : k;
      units += 1;
    } else if (c < 128) {
      while (j < n && j - i < 8 && isPunctuation(text.charCodeAt(j))) j++;
      units += Math.ceil((j - i) / 3);
    } else if (c >= 0xd800 && c <= 0xdbff) {
      // A surrogate pair (emoji, rare CJK): four UTF-8 bytes, about two tokens.
      units += 2;
      j = i + 2;
    } else {
      units += 1;
    }
    i = j;
  }
  return units;
}

function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isBlank(c: number): boolean {
  return c === 32 || c === 9;
}
function isNewline(c: number): boolean {
  return c === 10 || c === 13;
}
function isPunctuation(c: number): boolean {
  return c > 32 && c < 127 && !isLetter(c) && !isDigit(c);
}
