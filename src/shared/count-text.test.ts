import { describe, expect, it } from 'vitest';
import { countText } from './count-text.js';

describe('countText', () => {
  it('writes what toLocaleString("en-US") writes for whole numbers', () => {
    const cases = [0, 1, 12, 999, 1_000, 1_001, 20_000, 99_999, 100_000, 1_234_567, 9_007_199_254_740_991, -1, -1_000, -987_654_321];
    for (let n = 0; n < 5_000; n += 7) cases.push(n * 1_013);
    for (const n of cases) expect(countText(n), String(n)).toBe(n.toLocaleString('en-US'));
  });
});
