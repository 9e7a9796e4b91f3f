import { backoffDelay as sharedBackoffDelay, type BackoffOptions } from '../../../shared/backoff';

export type { BackoffOptions };

/** Reconnect delays: quick first retries (a host restart takes a moment), then capped. */
export const RECONNECT_BASE_MS = 250;
export const RECONNECT_MAX_MS = 10_000;

export const defaultBackoff: BackoffOptions = { baseMs: RECONNECT_BASE_MS, maxMs: RECONNECT_MAX_MS, random: Math.random };

/** Delay before reconnect attempt `attempt` (1-based); see the shared backoff. */
export function backoffDelay(attempt: number, options: BackoffOptions = defaultBackoff): number {
  return sharedBackoffDelay(attempt, options);
}
