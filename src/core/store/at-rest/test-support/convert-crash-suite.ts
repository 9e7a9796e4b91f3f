import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleChild, MAX_TRIAL_REDOS, pool, runChild } from '../../test-support/crash-runner.js';
import { fastTmpRoot } from '../../test-support/temp-dir.js';
import { readEncryptionState } from '../at-rest-state.js';
import { enableEncryption, rotateKey } from '../convert.js';
import { nodeDurableFs } from '../../../fs/durable-fs.js';
import { buildStore, checkStore, notUnderKey } from './convert-fixture.js';
import { daemonVanished, describeExit, MAX_DAEMON_DEATHS, saysDaemonVanished, startSecretService, type DaemonExit, type SecretService } from './secret-service.js';

/**
 * Trials at once. Rotation's trials run one at a time: with several processes creating, reading and
 * deleting keychain items at once, Debian's gnome-keyring 42 has answered a read of an item that
 * exists with "not found" (seen twice under CI load); one client at a time keeps the daemon honest,
 * and every kill point is still tried.
 */
const PARALLEL: Record<'enable' | 'rotate', number> = { enable: 4, rotate: 1 };
const SUITE_TIMEOUT_MS = 900_000;
const CONVERT_CHILD = fileURLToPath(new URL('./convert-crash-child.ts', import.meta.url));

/**
 * `baton encrypt --enable` or `baton key rotate` killed after each of its writes/fsyncs/renames
 * (plain and torn writes), against a real Secret Service. After every kill each session reads back
 * whole (old or new), and a second run finishes the job with every file under the current key.
 * One mode per test file: each file gets a keyring of its own (after a part's hundreds of
 * SIGKILLed keychain clients, Debian's gnome-keyring 42 has been seen to leave the bus, and this
 * process's keychain binding keeps the bus it first connected to). A trial the daemon died under
 * (secret-service.ts: the bus's NoReply or a lost session, with a recorded exit, nothing else) runs again, and the
 * daemon's deaths are printed with its stderr.
 */
export function convertCrashSuite(mode: 'enable' | 'rotate'): void {
  let service: SecretService;
  let work: string;
  let convertCmd: string[];
  let dispose: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    service = await startSecretService();
    work = await mkdtemp(join(fastTmpRoot(), `baton-crash-${mode}-`));
    const child = await bundleChild(CONVERT_CHILD, `convert-child-${mode}`);
    convertCmd = child.cmd;
    dispose = child.dispose;
  }, 120_000);

  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
    await dispose();
    await service.stop();
  });

  describe(`crash suite with encryption at rest on: ${mode === 'enable' ? 'baton encrypt --enable' : 'baton key rotate'}`, () => {
    it(`${mode === 'enable' ? 'baton encrypt --enable' : 'baton key rotate'} killed after every write/fsync/rename: every session readable, old or new; a second run finishes it`, async () => {
      const started = Date.now();
      const dry = join(work, `${mode}-dry`);
      await buildStore(dry, mode === 'rotate');
      const { ops } = await runChild(convertCmd, [dry, '0', '0', mode]);
      expect(ops).toBeGreaterThan(20);
      const plan = [0, 1].flatMap((variant) => Array.from({ length: ops! }, (_, i) => ({ variant, k: i + 1 })));
      const totals = { trials: 0, killed: 0, unreadable: 0, notFinished: 0, redone: 0 };
      const failures: string[] = [];
      /** One trial: null when every session read back and the second run finished, else what went wrong. */
      const trial = async (variant: number, k: number, root: string): Promise<{ failure: string | null; vanished: DaemonExit | null }> => {
        const exitsBefore = (await service.daemonExits()).length;
        // Only the bus's NoReply or a lost session, together with a recorded daemon exit, counts as the service vanishing (secret-service.ts).
        const vanished = (text: string): Promise<DaemonExit | null> => daemonVanished(service, text, exitsBefore);
        const expected = await buildStore(root, mode === 'rotate');
        const res = await runChild(convertCmd, [root, String(k), String(variant), mode]);
        const childVanished = await vanished(res.stderr);
        if (childVanished !== null) return { failure: null, vanished: childVanished };
        const afterKill = await checkStore(root, expected);
        // Resume: the same command again, to the end.
        try {
          if (mode === 'enable') await enableEncryption(root);
          else await rotateKey(root);
        } catch (error) {
          const resumeVanished = await vanished(String(error));
          if (resumeVanished === null) throw error;
          return { failure: null, vanished: resumeVanished };
        }
        const state = (await readEncryptionState(nodeDurableFs, root))!;
        const afterResume = [...(await checkStore(root, expected)), ...(await notUnderKey(root, state.key.keyId)).map((f) => `not under the current key: ${f}`), ...(state.previous.length > 0 ? ['old key still listed'] : [])];
        const problems = [...afterKill, ...afterResume, ...(res.stderr ? [res.stderr] : [])];
        // This process's own reads of the store ask the keychain too: the daemon can die under them as
        // well. Redone only when every problem found is that (a product failure beside it is reported).
        const checkVanished = problems.length > 0 && problems.every(saysDaemonVanished) ? await vanished(problems.join(' | ')) : null;
        if (checkVanished !== null) return { failure: null, vanished: checkVanished };
        totals.trials += 1;
        if (res.signal === 'SIGKILL') totals.killed += 1;
        if (afterKill.length > 0) totals.unreadable += 1;
        if (afterResume.length > 0) totals.notFinished += 1;
        return { failure: problems.length > 0 ? problems.join(' | ') : null, vanished: null };
      };
      await pool(plan, PARALLEL[mode], async ({ variant, k }) => {
        for (let attempt = 0; ; attempt++) {
          const root = join(work, `${mode}-${variant}-${k}-${attempt}`);
          const { failure, vanished } = await trial(variant, k, root);
          if (vanished !== null && attempt < MAX_TRIAL_REDOS) {
            // Not the product: the keyring daemon died under this trial. The trial runs again on a fresh store.
            totals.redone += 1;
            await rm(root, { recursive: true, force: true });
            continue;
          }
          if (vanished !== null) failures.push(`${mode} variant ${variant} K=${k}: the Secret Service itself failed: its daemon vanished under this trial ${attempt + 1} times (last ${describeExit(vanished)})`);
          else if (failure !== null) failures.push(`${mode} variant ${variant} K=${k}: ${failure}`);
          else await rm(root, { recursive: true, force: true });
          return;
        }
      });
      const deaths = await service.daemonExits();
      console.log(`crash suite (${mode}): ${JSON.stringify(totals)} in ${((Date.now() - started) / 1000).toFixed(1)} s; keyring daemon started ${await service.daemonStarts()} time(s)${deaths.length > 0 ? `; it died: ${deaths.map(describeExit).join(', ')}; its stderr:\n${await service.daemonLog()}` : ''}`);
      expect(deaths.length, `the Secret Service itself failed: its daemon died ${deaths.length} times (${deaths.map(describeExit).join(', ')})`).toBeLessThanOrEqual(MAX_DAEMON_DEATHS);
      expect(failures.slice(0, 10)).toEqual([]);
      expect(totals.killed).toBe(totals.trials);
      expect(totals.trials).toBe(2 * ops!);
    }, SUITE_TIMEOUT_MS);
  });
}
