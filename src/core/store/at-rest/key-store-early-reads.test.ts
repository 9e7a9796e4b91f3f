import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENCRYPTION_FILE } from '../layout.js';
import { osKeyStore, startKeychainReads } from './key-store.js';
import { startSecretService, type SecretService } from './test-support/secret-service.js';

/**
 * Issue 17: bin/baton.js starts an encrypted store's keychain read before it compiles the list
 * bundle, whose store open then takes it (the two bundles share it through globalThis under
 * Symbol.for('baton.keychain-early-reads'), the contract between them). Against a real Secret
 * Service (gnome-keyring on a private D-Bus bus).
 */
const EARLY_READS = Symbol.for('baton.keychain-early-reads');
const pending = () => (globalThis as { [EARLY_READS]?: Map<string, unknown> })[EARLY_READS] ?? new Map<string, unknown>();

let service: SecretService;
let root: string;

beforeAll(async () => {
  service = await startSecretService();
  root = await mkdtemp(join(tmpdir(), 'baton-early-reads-'));
}, 60_000);
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await service.stop();
});

const accountOf = () => `data-key-${randomBytes(8).toString('hex')}`;

async function storeWith(name: string, settings: unknown): Promise<string> {
  const dir = join(root, name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  if (settings !== undefined) await writeFile(join(dir, ENCRYPTION_FILE), typeof settings === 'string' ? settings : JSON.stringify(settings));
  return dir;
}

const keyring = (account: string, previous: string[] = []) => ({ version: 1, mode: 'keyring', key: { account, keyId: '0123456789abcdef' }, previous: previous.map((a) => ({ account: a, keyId: 'fedcba9876543210' })), enabledAt: '2026-12-01T00:00:00.000Z' });

describe('startKeychainReads', () => {
  it('starts the reads of the keys encryption.json names, and the store\'s read takes each (its secret, once)', async () => {
    const current = accountOf();
    const older = accountOf();
    const secret = randomBytes(32);
    await osKeyStore().write(current, secret);
    await osKeyStore().write(older, Buffer.alloc(32, 1));
    const dir = await storeWith('keyring', keyring(current, [older]));
    startKeychainReads(dir);
    expect([...pending().keys()]).toEqual([current, older]);
    expect(await osKeyStore().read(current)).toEqual(secret);
    expect(pending().has(current)).toBe(false);
    expect(await osKeyStore().read(older)).toEqual(Buffer.alloc(32, 1));
    expect(pending().size).toBe(0);
  });

  it('an early read of an entry the keychain does not hold answers as the direct read does (no key)', async () => {
    const missing = accountOf();
    startKeychainReads(await storeWith('missing', keyring(missing)));
    expect(pending().has(missing)).toBe(true);
    expect(await osKeyStore().read(missing)).toBeUndefined();
  });

  it('starts nothing for a plain store, a passphrase store, a damaged file or an account of another shape', async () => {
    const stores = [
      await storeWith('plain', undefined),
      await storeWith('passphrase', { version: 1, mode: 'passphrase', kdf: {}, key: { keyId: '0123456789abcdef' }, enabledAt: '2026-12-01T00:00:00.000Z' }),
      await storeWith('damaged', '{"mode":"keyring",'),
      await storeWith('odd-account', keyring('../../other-service')),
      await storeWith('odd-previous', keyring(accountOf(), ['not-a-key'])),
    ];
    for (const dir of stores) startKeychainReads(dir);
    expect(pending().size).toBe(0);
  });

  it('a write or removal of the account drops a read started before it (never an older secret after a write)', async () => {
    const account = accountOf();
    await osKeyStore().write(account, Buffer.alloc(32, 2));
    startKeychainReads(await storeWith('rewritten', keyring(account)));
    await osKeyStore().write(account, Buffer.alloc(32, 3));
    expect(pending().has(account)).toBe(false);
    expect(await osKeyStore().read(account)).toEqual(Buffer.alloc(32, 3));
  });
});
