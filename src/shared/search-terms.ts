/**
 * The words of a text, as the search index stores them, as a query is matched and as the
 * conversation paints a hit: lowercase runs of letters, digits and combining marks. Everything
 * else separates words: spaces, punctuation, and also symbols and control characters.
 * minisearch's default tokenizer (used until index format 4) split on spaces and punctuation
 * only, so the backtick (a symbol, \p{Sk}) around Markdown code stayed glued to the word:
 * "`worker-12.ts`" gave "`worker", "12", "ts`", and at message level "worker ts" found nothing
 * (a tab, \p{Cc}, glued words the same way).
 */
export const WORD_SEPARATOR = /[^\p{L}\p{N}\p{M}]+/u;

export function termsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(WORD_SEPARATOR)
    .filter((t) => t.length > 0);
}

/**
 * True when `words` (a text's terms) hold every query term, the last one as a prefix: what a hit
 * of the index means, for one message or one candidate title.
 */
export function wordsMatch(words: readonly string[], terms: readonly string[]): boolean {
  if (terms.length === 0) return false;
  const last = terms.length - 1;
  return terms.every((term, i) => (i === last ? words.some((w) => w.startsWith(term)) : words.includes(term)));
}
