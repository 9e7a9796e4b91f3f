import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { spawn } from 'node:child_process';
import { daemonVanished, DAEMON_VANISHED, describeExit, keyringEntries, parseExits, startSecretService, type SecretService } from './secret-service.js';

/** The test Secret Service outlives its daemon: a SIGKILLed gnome-keyring is re-activated on the same, unlocked keyring. */
const run = promisify(execFile);
/** Long enough for a child to start and send its first call to the stopped daemon. */
const CALL_IN_FLIGHT_MS = 1_500;
let service: SecretService;

beforeAll(async () => {
  service = await startSecretService();
}, 30_000);

afterAll(async () => service.stop());

/** Stores or reads a secret from a fresh process through the binding the product uses. */
async function inChild(script: string): Promise<string> {
  const { stdout } = await run(process.execPath, ['-e', `const { Entry } = require('@napi-rs/keyring'); const e = new Entry('baton', 'harness-probe', { linux: { store: 'secret-service' } }); ${script}`], { env: service.env, cwd: process.cwd() });
  return stdout.trim();
}

describe('the test Secret Service', () => {
  it('keeps its keys and stays unlocked when the keyring daemon is killed', async () => {
    await inChild(`e.setPassword('before-the-kill')`);
    for (let round = 1; round <= 3; round++) {
      const pid = await service.daemonPid();
      process.kill(pid, 'SIGKILL');
      expect(await inChild(`process.stdout.write(String(e.getPassword()))`)).toBe('before-the-kill');
      expect(await service.daemonStarts()).toBe(round + 1);
      expect(await service.daemonPid()).not.toBe(pid);
    }
    expect(await keyringEntries(service)).toContain('harness-probe');
    // Each death is on record, with how it ended: what a suite names when the service itself failed.
    const exits = await service.daemonExits();
    expect(exits.map(describeExit)).toEqual(exits.map((e) => `pid ${e.pid} killed by signal 9 (SIGKILL)`));
    expect(exits).toHaveLength(3);
    expect(await service.daemonExitedSince(2)).toEqual(exits[2]);
  }, 30_000);

  it('a client mid-call when the daemon dies is told the recipient left, and the death is on record: "the Secret Service vanished"', async () => {
    await inChild(`e.getPassword()`).catch(() => undefined); // the daemon is up (re-activated if needed)
    const exitsBefore = (await service.daemonExits()).length;
    const pid = await service.daemonPid();
    // Stopped, the daemon holds the client's call unanswered; killed, the bus answers for it.
    process.kill(pid, 'SIGSTOP');
    const client = spawn(process.execPath, ['-e', `const { Entry } = require('@napi-rs/keyring'); try { new Entry('baton', 'harness-probe', { linux: { store: 'secret-service' } }).getPassword() } catch (e) { process.stderr.write(String(e.message)); process.exit(3) }`], { env: service.env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    client.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = new Promise<number | null>((resolve) => client.once('close', resolve));
    await new Promise((r) => setTimeout(r, CALL_IN_FLIGHT_MS));
    process.kill(pid, 'SIGKILL');
    expect(await code).toBe(3);
    expect(stderr).toContain(DAEMON_VANISHED);
    expect(await daemonVanished(service, stderr, exitsBefore)).toEqual({ pid, status: 137 });
    // The same words without a recorded death are a product failure, never "vanished".
    expect(await daemonVanished(service, stderr, exitsBefore + 1)).toBeNull();
    expect(await daemonVanished(service, 'KEY_UNAVAILABLE: No secret store is configured', exitsBefore)).toBeNull();
    // A session the restarted daemon does not know: vanished with the recorded death, a product failure without it.
    const lost = 'KEY_UNAVAILABLE: Platform failure: DBus error: The session does not exist';
    expect(await daemonVanished(service, lost, exitsBefore)).toEqual({ pid, status: 137 });
    expect(await daemonVanished(service, lost, exitsBefore + 1)).toBeNull();
  }, 30_000);

  it('waits for no exit that did not happen, and reads only whole exit records', async () => {
    const before = (await service.daemonExits()).length;
    const started = Date.now();
    expect(await service.daemonExitedSince(before)).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
    expect(parseExits('12 134\n13 0\n14')).toEqual([
      { pid: 12, status: 134 },
      { pid: 13, status: 0 },
    ]);
    expect(describeExit({ pid: 12, status: 134 })).toBe('pid 12 killed by signal 6 (SIGABRT)');
    expect(describeExit({ pid: 13, status: 1 })).toBe('pid 13 exited with status 1');
  }, 30_000);
});
