import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../index.js';
import { bundleChild, pool, runChild, runScenarioSuite } from '../test-support/crash-runner.js';
import { fastTmpRoot } from '../test-support/temp-dir.js';
import { ENCRYPTION_FILE, readEncryptionState } from './at-rest-state.js';
import { enableEncryption, rotateKey } from './convert.js';
import { nodeDurableFs } from '../../fs/durable-fs.js';
import { buildStore, checkStore, notUnderKey } from './test-support/convert-fixture.js';
import { startSecretService, type SecretService } from './test-support/secret-service.js';

/**
 * The crash suite with encryption at rest on, against a real Secret Service: the store scenario
 * (≥ TRIALS_MIN kills, every record sealed), then `baton encrypt --enable` and `baton key rotate`
 * killed after each of their writes/fsyncs/renames. After every kill each session reads back
 * whole (old or new), and a second run finishes the job with every file under the current key.
 */
const TRIALS_MIN = 1000;
const PARALLEL = 4;
const SUITE_TIMEOUT_MS = 900_000;
const SCENARIO_CHILD = fileURLToPath(new URL('../test-support/crash-child.ts', import.meta.url));
const CONVERT_CHILD = fileURLToPath(new URL('./test-support/convert-crash-child.ts', import.meta.url));

let service: SecretService;
let work: string;
let scenarioCmd: string[];
let convertCmd: string[];
/** One key for every scenario trial (created once): encryption.json is copied into each trial root. */
let encryptionJson: string;
let disposeChildren: () => Promise<void> = async () => undefined;

beforeAll(async () => {
  service = await startSecretService();
  work = await mkdtemp(join(fastTmpRoot(), 'baton-crash-enc-'));
  const [scenario, convert] = await Promise.all([bundleChild(SCENARIO_CHILD, 'crash-child-enc'), bundleChild(CONVERT_CHILD, 'convert-child')]);
  [scenarioCmd, convertCmd] = [scenario.cmd, convert.cmd];
  disposeChildren = async () => {
    await scenario.dispose();
    await convert.dispose();
  };
  const seed = join(work, 'seed');
  await (await openStore(seed)).close();
  encryptionJson = await readFile(join(seed, ENCRYPTION_FILE), 'utf8');
}, 120_000);

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
  await disposeChildren();
  await service.stop();
});

describe('crash suite with encryption at rest on', () => {
  it(`≥${TRIALS_MIN} trials of the store scenario, every record sealed: 0 corrupted, 0 acknowledged lost, 0 duplicates`, async () => {
    const started = Date.now();
    const prepare = async (root: string): Promise<void> => {
      await mkdir(root, { recursive: true, mode: 0o700 });
      await writeFile(join(root, ENCRYPTION_FILE), encryptionJson, { mode: 0o600 });
    };
    const { totals, failures, dryErrors } = await runScenarioSuite({ work, childCmd: scenarioCmd, trialsMin: TRIALS_MIN, parallel: PARALLEL, prepare });
    console.log(`crash suite (encrypted): ${JSON.stringify(totals)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(dryErrors).toEqual([]);
    expect(failures.slice(0, 10)).toEqual([]);
    expect(totals.trials).toBeGreaterThanOrEqual(TRIALS_MIN);
    expect(totals.killed).toBe(totals.trials);
    expect(totals.corrupted + totals.lost + totals.duplicates + totals.tornTailsLeft + totals.midDamage).toBe(0);
    // The trials replay the dry runs' operations: every file of those is ciphertext under the suite's key.
    const keyId = (JSON.parse(encryptionJson) as { key: { keyId: string } }).key.keyId;
    expect(await notUnderKey(join(work, 'dry-0'), keyId)).toEqual([]);
  }, SUITE_TIMEOUT_MS);

  for (const mode of ['enable', 'rotate'] as const) {
    it(`${mode === 'enable' ? 'baton encrypt --enable' : 'baton key rotate'} killed after every write/fsync/rename: every session readable, old or new; a second run finishes it`, async () => {
      const started = Date.now();
      const dry = join(work, `${mode}-dry`);
      await buildStore(dry, mode === 'rotate');
      const { ops } = await runChild(convertCmd, [dry, '0', '0', mode]);
      expect(ops).toBeGreaterThan(20);
      const plan = [0, 1].flatMap((variant) => Array.from({ length: ops! }, (_, i) => ({ variant, k: i + 1 })));
      const totals = { trials: 0, killed: 0, unreadable: 0, notFinished: 0 };
      const failures: string[] = [];
      await pool(plan, PARALLEL, async ({ variant, k }) => {
        const root = join(work, `${mode}-${variant}-${k}`);
        const expected = await buildStore(root, mode === 'rotate');
        const res = await runChild(convertCmd, [root, String(k), String(variant), mode]);
        totals.trials += 1;
        if (res.signal === 'SIGKILL') totals.killed += 1;
        const afterKill = await checkStore(root, expected);
        // Resume: the same command again, to the end.
        if (mode === 'enable') await enableEncryption(root);
        else await rotateKey(root);
        const state = (await readEncryptionState(nodeDurableFs, root))!;
        const afterResume = [...(await checkStore(root, expected)), ...(await notUnderKey(root, state.key.keyId)).map((f) => `not under the current key: ${f}`), ...(state.previous.length > 0 ? ['old key still listed'] : [])];
        if (afterKill.length > 0) totals.unreadable += 1;
        if (afterResume.length > 0) totals.notFinished += 1;
        if (afterKill.length + afterResume.length > 0 || res.stderr) failures.push(`${mode} variant ${variant} K=${k}: ${[...afterKill, ...afterResume, res.stderr].join(' | ')}`);
        else await rm(root, { recursive: true, force: true });
      });
      console.log(`crash suite (${mode}): ${JSON.stringify(totals)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      expect(failures.slice(0, 10)).toEqual([]);
      expect(totals.killed).toBe(totals.trials);
      expect(totals.trials).toBe(2 * ops!);
    }, SUITE_TIMEOUT_MS);
  }
});
