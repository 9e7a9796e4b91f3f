/** Reconnect delays: quick first retries (a host restart takes a moment), then capped. */
export const RECONNECT_BASE_MS = 250;
export const RECONNECT_MAX_MS = 10_000;

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  /** 0..1; injected so tests are deterministic. */
  random: () => number;
}

export const defaultBackoff: BackoffOptions = { baseMs: RECONNECT_BASE_MS, maxMs: RECONNECT_MAX_MS, random: Math.random };

/**
 * Delay before reconnect attempt `attempt` (1-based): exponential, capped, with jitter in
 * [50 %, 100 %] so many tabs do not reconnect in lockstep after a host restart.
 */
export function backoffDelay(attempt: number, options: BackoffOptions = defaultBackoff): number {
  const exponent = Math.max(0, Math.min(attempt - 1, 30));
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** exponent);
  return Math.round(ceiling * (0.5 + 0.5 * options.random()));
}
