import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../index.js';
import { bundleChild, runScenarioSuite } from '../test-support/crash-runner.js';
import { fastTmpRoot } from '../test-support/temp-dir.js';
import { ENCRYPTION_FILE } from './at-rest-state.js';
import { notUnderKey } from './test-support/convert-fixture.js';
import { osKeyStore, type KeyStore } from './key-store.js';
import { daemonVanished, describeExit, MAX_DAEMON_DEATHS, startSecretService, type SecretService } from './test-support/secret-service.js';

/**
 * The crash suite with encryption at rest on, against a real Secret Service: the store scenario
 * (≥ TRIALS_MIN kills, every record sealed). `baton encrypt --enable` and `baton key rotate`
 * killed after each of their writes/fsyncs/renames are in convert-enable-crash.test.ts and
 * key-rotate-crash.test.ts (test-support/convert-crash-suite.ts), each with a keyring of its own.
 */
const TRIALS_MIN = 1000;
const PARALLEL = 4;
const SUITE_TIMEOUT_MS = 900_000;
const SCENARIO_CHILD = fileURLToPath(new URL('../test-support/crash-child.ts', import.meta.url));

let service: SecretService;
let work: string;
let scenarioCmd: string[];
/** One key for every scenario trial (created once): encryption.json is copied into each trial root. */
let encryptionJson: string;
let disposeChildren: () => Promise<void> = async () => undefined;

/**
 * How this process reads the suite's one key while it verifies trials: through the keychain once,
 * then from memory. The trial children each read it from the Secret Service themselves; this
 * process's binding keeps its D-Bus session for life, so a keyring daemon restarted mid-suite
 * (see test-support/secret-service.ts) would fail every later verification in here.
 */
function keyReadOnce(keys: KeyStore): KeyStore {
  const read = new Map<string, Promise<Buffer | undefined>>();
  return {
    label: keys.label,
    read: (account) => read.get(account) ?? (read.set(account, keys.read(account)), read.get(account)!),
    write: (account, secret) => keys.write(account, secret),
    remove: (account) => keys.remove(account),
  };
}

beforeAll(async () => {
  service = await startSecretService();
  work = await mkdtemp(join(fastTmpRoot(), 'baton-crash-enc-'));
  const scenario = await bundleChild(SCENARIO_CHILD, 'crash-child-enc');
  scenarioCmd = scenario.cmd;
  disposeChildren = scenario.dispose;
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
    // A child the keyring daemon died under (the bus's NoReply or a lost session, and a recorded exit) is the test
    // Secret Service failing, not the store: that trial runs again (test-support/secret-service.ts).
    const outside = {
      mark: async () => (await service.daemonExits()).length,
      failedUnder: async (stderr: string, mark: number) => {
        const exit = await daemonVanished(service, stderr, mark);
        return exit === null ? null : `the Secret Service itself failed: its daemon vanished (${describeExit(exit)})`;
      },
    };
    const { totals, failures, dryErrors, redone } = await runScenarioSuite({ work, childCmd: scenarioCmd, trialsMin: TRIALS_MIN, parallel: PARALLEL, prepare, verifyStoreOptions: { keyStore: keyReadOnce(osKeyStore()) }, outside });
    const deaths = await service.daemonExits();
    console.log(`crash suite (encrypted): ${JSON.stringify(totals)} in ${((Date.now() - started) / 1000).toFixed(1)} s; keyring daemon started ${await service.daemonStarts()} time(s); ${redone.length} trial(s) redone${deaths.length > 0 ? `; it died: ${deaths.map(describeExit).join(', ')}; its stderr:\n${await service.daemonLog()}` : ''}`);
    expect(deaths.length, `the Secret Service itself failed: its daemon died ${deaths.length} times (${deaths.map(describeExit).join(', ')})`).toBeLessThanOrEqual(MAX_DAEMON_DEATHS);
    expect(dryErrors).toEqual([]);
    expect(failures.slice(0, 10)).toEqual([]);
    expect(totals.trials).toBeGreaterThanOrEqual(TRIALS_MIN);
    expect(totals.killed).toBe(totals.trials);
    expect(totals.corrupted + totals.lost + totals.duplicates + totals.tornTailsLeft + totals.midDamage).toBe(0);
    // The trials replay the dry runs' operations: every file of those is ciphertext under the suite's key.
    const keyId = (JSON.parse(encryptionJson) as { key: { keyId: string } }).key.keyId;
    expect(await notUnderKey(join(work, 'dry-0'), keyId)).toEqual([]);
  }, SUITE_TIMEOUT_MS);

});
