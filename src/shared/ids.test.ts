import { describe, expect, it } from 'vitest';
import { isValidId, newId } from './ids.js';

describe('newId', () => {
  it('takes its 8 random bytes from the source it is given, once per id', () => {
    const asked: number[] = [];
    let next = 0;
    const take = (size: number) => {
      asked.push(size);
      return Uint8Array.from({ length: size }, () => next++);
    };
    const first = newId('s-', take);
    const second = newId('s-', take);
    expect(asked).toEqual([8, 8]);
    expect(first).toMatch(/^s-[0-9a-z]+-0001020304050607$/);
    expect(second).toMatch(/^s-[0-9a-z]+-08090a0b0c0d0e0f$/);
  });

  it('by default draws from Web Crypto: valid, distinct ids across a refill of its pool', () => {
    const ids = Array.from({ length: 2_000 }, () => newId('h'));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(isValidId(id)).toBe(true);
      expect(id).toMatch(/^h[0-9a-z]+-[0-9a-f]{16}$/);
    }
  });
});
