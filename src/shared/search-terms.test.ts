import { describe, expect, it } from 'vitest';
import { termsOf, wordsMatch } from './search-terms.js';

describe('search terms', () => {
  it('splits on spaces, punctuation, symbols and control characters; keeps letters, digits and combining marks', () => {
    expect(termsOf('check `worker-12.ts`.')).toEqual(['check', 'worker', '12', 'ts']);
    expect(termsOf('**Timeout**\thandling|x=1+2 ✓ done → ok $HOME ~/a^b')).toEqual(['timeout', 'handling', 'x', '1', '2', 'done', 'ok', 'home', 'a', 'b']);
    // A decomposed é (e + U+0301) stays one word; so does a precomposed one.
    expect(termsOf('cafe\u0301 café naïve 日本語')).toEqual(['cafe\u0301', 'café', 'naïve', '日本語']);
    expect(termsOf(' \n`**`  ')).toEqual([]);
  });

  it('matches every term as a word, the last as a prefix', () => {
    const words = termsOf('check `worker-12.ts`');
    expect(wordsMatch(words, termsOf('worker-12.ts'))).toBe(true);
    expect(wordsMatch(words, termsOf('worker t'))).toBe(true);
    expect(wordsMatch(words, termsOf('work ts'))).toBe(false);
    expect(wordsMatch(words, [])).toBe(false);
  });
});
