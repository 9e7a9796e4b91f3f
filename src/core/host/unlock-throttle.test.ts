import { describe, expect, it } from 'vitest';
import { createUnlockThrottle, UNLOCK_FIRST_DELAY_MS, UNLOCK_MAX_DELAY_MS } from './unlock-throttle.js';

describe('createUnlockThrottle', () => {
  it('doubles the wait after each wrong passphrase, up to the cap, and forgets it after a success', () => {
    let now = 1_000_000;
    const throttle = createUnlockThrottle(() => now);
    expect(throttle.retryAfterMs()).toBe(0);
    const waits: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      throttle.failed();
      waits.push(throttle.retryAfterMs());
    }
    expect(waits.slice(0, 4)).toEqual([UNLOCK_FIRST_DELAY_MS, 2 * UNLOCK_FIRST_DELAY_MS, 4 * UNLOCK_FIRST_DELAY_MS, 8 * UNLOCK_FIRST_DELAY_MS]);
    expect(Math.max(...waits)).toBe(UNLOCK_MAX_DELAY_MS);
    now += UNLOCK_MAX_DELAY_MS - 1;
    expect(throttle.retryAfterMs()).toBe(1);
    now += 1;
    expect(throttle.retryAfterMs()).toBe(0);
    throttle.succeeded();
    throttle.failed();
    expect(throttle.retryAfterMs()).toBe(UNLOCK_FIRST_DELAY_MS);
  });

  it('never overflows after a very long run of failures', () => {
    const throttle = createUnlockThrottle(() => 0);
    for (let i = 0; i < 5_000; i += 1) throttle.failed();
    expect(throttle.retryAfterMs()).toBe(UNLOCK_MAX_DELAY_MS);
  });
});
