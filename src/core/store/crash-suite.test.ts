import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleChild, runScenarioSuite } from './test-support/crash-runner.js';
import { fastTmpRoot } from './test-support/temp-dir.js';

/**
 * The crash suite: a real child process runs the scenario and SIGKILLs itself right after its K-th
 * write/fsync/rename, K walking through every step of every operation, for several variants
 * (different batch sizes shift every boundary). Recovery then checks the store.
 */
const TRIALS_MIN = 1000;
/** Children spend part of their life waiting on exec and I/O: a little more than one per core. */
const PARALLEL = 4;
/** Generous: the suite takes ~1–2 min on an idle 2-core machine, more when the machine is shared. */
const SUITE_TIMEOUT_MS = 600_000;
const CHILD_TS = fileURLToPath(new URL('./test-support/crash-child.ts', import.meta.url));

let work: string;
let childCmd: string[];
let disposeChild: () => Promise<void>;

beforeAll(async () => {
  work = await mkdtemp(join(fastTmpRoot(), 'baton-crash-'));
  ({ cmd: childCmd, dispose: disposeChild } = await bundleChild(CHILD_TS, 'crash-child'));
}, 60_000);

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
  await disposeChild();
});

describe('crash suite (SIGKILL after the K-th write/fsync/rename)', () => {
  it(`≥${TRIALS_MIN} trials: 0 corrupted, 0 acknowledged lost, 0 duplicates, every torn tail repaired, 0 mid-file damage`, async () => {
    const started = Date.now();
    const { totals, failures, dryErrors } = await runScenarioSuite({ work, childCmd, trialsMin: TRIALS_MIN, parallel: PARALLEL });
    console.log(`crash suite: ${JSON.stringify(totals)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(dryErrors).toEqual([]);
    expect(failures.slice(0, 10)).toEqual([]);
    expect(totals.trials).toBeGreaterThanOrEqual(TRIALS_MIN);
    expect(totals.killed).toBe(totals.trials);
    expect(totals.corrupted + totals.lost + totals.duplicates + totals.tornTailsLeft + totals.midDamage).toBe(0);
  }, SUITE_TIMEOUT_MS);
});
