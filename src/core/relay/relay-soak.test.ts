import { describe, expect, it } from 'vitest';
import { runRelaySoak } from './test-support/soak.js';

/**
 * The random-kill soak (issue 13): up to 1,000 handoffs while nats-server is SIGKILLed and restarted
 * at random, within a wall-time budget (fewer handoffs on a slow or shared machine; the count is
 * printed). The full 1,000 runs in bench/relay/soak.ts.
 */
const BUDGET_MS = Number(process.env.BATON_RELAY_SOAK_BUDGET_MS ?? 45_000);

describe('relay soak with random server kills', () => {
  it('every handoff lands exactly once and is claimed exactly once', { timeout: 200_000 }, async () => {
    const result = await runRelaySoak({ count: 1_000, budgetMs: BUDGET_MS, log: (line) => console.log(line) });
    console.log(`relay soak: ${JSON.stringify(result)}`);
    expect(result.handedOff).toBeGreaterThan(20);
    expect(result.kills).toBeGreaterThan(2);
    expect(result.sessionsAtTarget).toBe(result.handedOff);
    expect(result.claimedOnce).toBe(result.handedOff);
    expect(result.headsAtRelay).toBe(result.handedOff);
    expect(result.elapsedMs).toBeLessThan(180_000); // the CI wall-time budget, including the final retries
  });
});
