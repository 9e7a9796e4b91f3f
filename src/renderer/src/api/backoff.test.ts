import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff';

const options = (random: number) => ({ baseMs: 250, maxMs: 10_000, random: () => random });

describe('backoffDelay', () => {
  it('doubles per attempt up to the cap (jitter at its maximum)', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => backoffDelay(attempt, options(1)))).toEqual([250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
  });

  it('jitter keeps at least half the delay', () => {
    expect(backoffDelay(3, options(0))).toBe(500);
    expect(backoffDelay(3, options(0.5))).toBe(750);
  });

  it('huge attempt numbers stay at the cap instead of overflowing', () => {
    expect(backoffDelay(10_000, options(1))).toBe(10_000);
    expect(backoffDelay(0, options(1))).toBe(250);
  });
});
