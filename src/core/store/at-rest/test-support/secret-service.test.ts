import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { keyringEntries, startSecretService, type SecretService } from './secret-service.js';

/** The test Secret Service outlives its daemon: a SIGKILLed gnome-keyring is re-activated on the same, unlocked keyring. */
const run = promisify(execFile);
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
  }, 30_000);
});
