/** Exponential backoff, shared by the renderer's reconnects and the relay inbox's redeliveries. */
export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  /** 0..1; injected so tests are deterministic. */
  random: () => number;
}

/**
 * Delay before attempt `attempt` (1-based): exponential, capped, with jitter in [50 %, 100 %] so
 * many clients do not retry in lockstep.
 */
export function backoffDelay(attempt: number, options: BackoffOptions): number {
  const exponent = Math.max(0, Math.min(attempt - 1, 30));
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** exponent);
  return Math.round(ceiling * (0.5 + 0.5 * options.random()));
}
