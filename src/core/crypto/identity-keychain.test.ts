import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { relayDoctorChecks } from '../relay/doctor-checks.js';
import { osKeyStore } from '../store/at-rest/key-store.js';
import { startSecretService, type SecretService } from '../store/at-rest/test-support/secret-service.js';
import { removeDir, tempDataDir } from '../tasks/test-support/endpoint.js';
import { identityPath, loadOrCreateIdentity, readIdentity } from './identity.js';
import { DEVICE_SECRET_MAX_BYTES, deviceKeyAccount, storeDeviceKeys } from './identity-keychain.js';
import { seal, open } from './seal.js';

/**
 * Issue 17: the relay device's private keys live in the OS keychain, against a real Secret Service
 * (gnome-keyring on a private D-Bus bus), read back with libsecret's own secret-tool, not through
 * the binding under test. identity.json keeps only the public keys and the entry's name.
 */
const CLI = join(import.meta.dirname, '..', '..', 'cli', 'run.ts');
const execFileP = promisify(execFile);

let service: SecretService;
let root: string;
let dataDir: string;

/** The secret under `account`, read with secret-tool (exit 1, '' when there is none). */
async function secretToolLookup(account: string): Promise<string> {
  try {
    return (await execFileP('secret-tool', ['lookup', 'service', 'baton', 'username', account], { env: service.env })).stdout;
  } catch (error) {
    if ((error as { code?: number }).code === 1) return '';
    throw error;
  }
}

/** Every device-key account in the keychain, listed by secret-tool (it prints attributes on stderr). */
async function deviceKeyAccounts(): Promise<string[]> {
  const { stdout, stderr } = await execFileP('secret-tool', ['search', '--all', 'service', 'baton'], { env: service.env });
  return [...(stdout + stderr).matchAll(/attribute\.username = (device-key-d[0-9a-f]+)/g)].map((m) => m[1]!);
}

/** The raw private scalar of a key (JWK `d`), to look for on disk. */
function privateScalars(identity: { encryptionPrivate: import('node:crypto').KeyObject; signingPrivate: import('node:crypto').KeyObject }): string[] {
  return [identity.encryptionPrivate, identity.signingPrivate].map((k) => (k.export({ format: 'jwk' }) as { d: string }).d);
}

beforeAll(async () => {
  service = await startSecretService();
});
afterAll(() => service.stop());
beforeEach(async () => {
  root = await tempDataDir('baton-identity-keychain-');
  dataDir = join(root, 'data');
});
afterEach(() => removeDir(root));

describe('device private keys in the OS keychain', () => {
  it('after `baton device list` set-up, identity.json holds no private key bytes and secret-tool finds them in the keychain', async () => {
    const { stdout } = await execFileP(process.execPath, ['--import', 'tsx', CLI, 'device', 'list', '--json'], { env: { ...process.env, BATON_HOME: dataDir, BATON_DEVICE_NAME: 'laptop' } });
    const self = (JSON.parse(stdout.trim().split('\n').at(-1)!) as { self: { deviceId: string; signingKey: string } }).self;
    const text = await readFile(identityPath(dataDir), 'utf8');
    expect(JSON.parse(text)).toEqual({ version: 2, deviceId: self.deviceId, name: 'laptop', encryptionKey: expect.any(String), signingKey: self.signingKey, keychain: { account: deviceKeyAccount(self.deviceId) } });
    expect(text).not.toContain('PRIVATE KEY');
    expect((await stat(identityPath(dataDir))).mode & 0o777).toBe(0o600);

    const secret = await secretToolLookup(deviceKeyAccount(self.deviceId));
    expect(secret).toContain('BEGIN PRIVATE KEY');
    const identity = (await readIdentity(dataDir))!;
    expect(identity).toMatchObject({ deviceId: self.deviceId, signingKey: self.signingKey, keyStorage: { kind: 'keychain', account: deviceKeyAccount(self.deviceId) } });
    for (const d of privateScalars(identity)) expect(text).not.toContain(d);
    // The keys read back from the keychain still open what was sealed for this device.
    const other = await loadOrCreateIdentity(join(root, 'other'), 'desktop');
    const sealed = seal({ sender: other, recipient: identity, kind: 'handoff', context: 'h-1', plaintext: Buffer.from('hello') });
    const opened = open(sealed, { recipient: identity, kind: 'handoff', context: 'h-1', signingKeyOf: (id) => (id === other.deviceId ? other.signingKey : undefined) });
    expect(opened.ok && opened.plaintext.toString()).toBe('hello');
  }, 60_000);

  it('an existing file with private keys is migrated on first open: keychain written and read back, then the file rewritten without them', async () => {
    const old = await loadOrCreateIdentity(dataDir, 'old', { keyStore: null });
    const before = await readFile(identityPath(dataDir), 'utf8');
    expect(before).toContain('PRIVATE KEY');
    expect(old.keyStorage).toMatchObject({ kind: 'file' });

    const migrated = (await readIdentity(dataDir))!;
    expect(migrated).toMatchObject({ deviceId: old.deviceId, encryptionKey: old.encryptionKey, signingKey: old.signingKey, keyStorage: { kind: 'keychain' } });
    const after = await readFile(identityPath(dataDir), 'utf8');
    expect(after).not.toContain('PRIVATE KEY');
    for (const d of privateScalars(old)) expect(after).not.toContain(d);
    expect(await secretToolLookup(deviceKeyAccount(old.deviceId))).toContain('BEGIN PRIVATE KEY');
    // Opening again reads from the keychain; same identity.
    expect((await loadOrCreateIdentity(dataDir, 'ignored'))!.signingKey).toBe(old.signingKey);
  });

  it('processes that make the identity at once end up with one identity and one keychain entry', async () => {
    const before = await deviceKeyAccounts();
    const made = await Promise.all(Array.from({ length: 6 }, () => loadOrCreateIdentity(dataDir, 'racer')));
    expect(new Set(made.map((m) => m.signingKey)).size).toBe(1);
    // The losers removed the entries named for their own ids: only the winner's is new.
    const added = (await deviceKeyAccounts()).filter((a) => !before.includes(a));
    expect(added).toEqual([deviceKeyAccount(made[0]!.deviceId)]);
  });

  it('a missing keychain entry is refused with a precise error naming the file and the entry', async () => {
    const made = await loadOrCreateIdentity(dataDir, 'gone');
    expect(await osKeyStore().remove(deviceKeyAccount(made.deviceId))).toBe(true);
    const error = await readIdentity(dataDir).catch((e: unknown) => e as Error & { code?: string });
    expect(error).toBeInstanceOf(Error);
    expect((error as { code?: string }).code).toBe('IDENTITY_KEY_UNAVAILABLE');
    expect((error as Error).message).toContain(identityPath(dataDir));
    expect((error as Error).message).toContain(deviceKeyAccount(made.deviceId));
    // Nothing was rewritten: the file still names the entry, with no keys.
    expect(JSON.parse(await readFile(identityPath(dataDir), 'utf8'))).toMatchObject({ version: 2, keychain: { account: deviceKeyAccount(made.deviceId) } });
  });

  it('an entry holding other keys, or bytes Baton did not write, is refused and the file is left as it was', async () => {
    const made = await loadOrCreateIdentity(dataDir, 'swapped');
    const account = deviceKeyAccount(made.deviceId);
    const file = await readFile(identityPath(dataDir), 'utf8');
    const stranger = await loadOrCreateIdentity(join(root, 'stranger'), 'stranger', { keyStore: null });
    await storeDeviceKeys(osKeyStore(), account, stranger);
    await expect(readIdentity(dataDir)).rejects.toMatchObject({ code: 'IDENTITY_KEY_UNAVAILABLE', message: expect.stringContaining('holds other keys') });
    for (const garbage of [Buffer.from('not json'), Buffer.from('{"version":1}'), Buffer.alloc(DEVICE_SECRET_MAX_BYTES + 1, 0x20)]) {
      await osKeyStore().write(account, garbage);
      await expect(readIdentity(dataDir)).rejects.toMatchObject({ code: 'IDENTITY_KEY_UNAVAILABLE', message: expect.stringContaining(account) });
    }
    expect(await readFile(identityPath(dataDir), 'utf8')).toBe(file);
  });

  it('doctor says the keys are in the keychain; with no secret store they stay in the 0600 file and doctor says so', { timeout: 60_000 }, async () => {
    await loadOrCreateIdentity(dataDir, 'kc');
    const inKeychain = (await relayDoctorChecks(dataDir)).find((c) => c.name === 'device keys')!;
    expect(inKeychain).toMatchObject({ ok: true, detail: expect.stringContaining('are in the Secret Service') });

    // No reachable Secret Service (real CLI processes on a bus that does not exist): today's behaviour, said plainly.
    const plainDir = join(root, 'plain');
    const env = { ...process.env, BATON_HOME: plainDir, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/baton-no-bus' };
    await execFileP(process.execPath, ['--import', 'tsx', CLI, 'device', 'list', '--json'], { env });
    expect(await readFile(identityPath(plainDir), 'utf8')).toContain('PRIVATE KEY');
    const doctor = await execFileP(process.execPath, ['--import', 'tsx', CLI, 'doctor', '--json'], { env }).catch((e: { stdout: string }) => e);
    const checks = (JSON.parse(doctor.stdout.trim().split('\n').at(-1)!) as { checks: { name: string; detail: string }[] }).checks;
    expect(checks.find((c) => c.name === 'device keys')!.detail).toContain('not in the OS keychain: no secret store is available');
  });
});
