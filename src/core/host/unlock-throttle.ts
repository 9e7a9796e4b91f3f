/**
 * How often a wrong passphrase may be tried on the unlock screen. scrypt already costs ~0.1 s a
 * try; past that, every wrong passphrase doubles the wait before the next one is heard, so a page
 * (or anything else holding the browser token) cannot guess at scrypt speed.
 */
export const UNLOCK_FIRST_DELAY_MS = 1_000;
export const UNLOCK_MAX_DELAY_MS = 5 * 60_000;

export interface UnlockThrottle {
  /** Milliseconds before the next attempt is heard (0: now). */
  retryAfterMs(): number;
  failed(): void;
  succeeded(): void;
}

export function createUnlockThrottle(now: () => number = Date.now): UnlockThrottle {
  let failures = 0;
  let nextAt = 0;
  return {
    retryAfterMs: () => Math.max(0, nextAt - now()),
    failed() {
      failures += 1;
      nextAt = now() + Math.min(UNLOCK_FIRST_DELAY_MS * 2 ** Math.min(failures - 1, 30), UNLOCK_MAX_DELAY_MS);
    },
    succeeded() {
      failures = 0;
      nextAt = 0;
    },
  };
}
