/**
 * The full random-kill soak (issue 13): 1,000 handoffs while nats-server is SIGKILLed and restarted
 * every 1–3 s; then every failed or queued handoff is retried, and the target's sessions, claims and
 * relay heads are counted. The CI test (src/core/relay/relay-soak.test.ts) runs the same within a budget.
 *
 * Run: npx tsx bench/relay/soak.ts [count] [budget-seconds]
 */
import { runRelaySoak } from '../../src/core/relay/test-support/soak.js';
import { printTable } from '../stats.js';

const count = Number(process.argv[2] ?? 1_000);
const budgetMs = Number(process.argv[3] ?? 1_800) * 1_000;
const result = await runRelaySoak({ count, budgetMs, log: (line) => console.log(line) });
printTable([{ ...result, 'handoffs/s': (result.handedOff / result.elapsedMs) * 1_000 }]);
if (result.sessionsAtTarget !== result.handedOff || result.claimedOnce !== result.handedOff || result.headsAtRelay !== result.handedOff) process.exitCode = 1;
