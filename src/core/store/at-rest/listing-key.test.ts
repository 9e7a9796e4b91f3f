import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDataKey } from './aead.js';
import type { KeyStore } from './key-store.js';
import { readListingKey } from './listing-key.js';

/** The key `baton list` reads to open a sealed listing: only the keychain key encryption.json names, else null (the socket parts are used). */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-listing-key-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const key = newDataKey();
const account = 'data-key-0123456789abcdef';
function keys(read: KeyStore['read']): KeyStore {
  return { label: 'test', read, write: async () => undefined, remove: async () => false };
}
const holding = keys(async (a) => (a === account ? Buffer.from(key.key) : undefined));
const state = (over: Record<string, unknown> = {}) => JSON.stringify({ version: 1, mode: 'keyring', key: { account, keyId: key.keyId }, previous: [], enabledAt: 'x', ...over });

describe('readListingKey', () => {
  it('reads the named keychain entry and checks its id', async () => {
    await writeFile(join(dir, 'encryption.json'), state());
    expect((await readListingKey(dir, holding))?.keyId).toBe(key.keyId);
  });

  it('is null for no store setting, passphrase mode, malformed settings, a locked keychain, a missing entry or another key', async () => {
    const cases: Array<[string, string | null, KeyStore]> = [
      ['no encryption.json', null, holding],
      ['passphrase mode', JSON.stringify({ version: 1, mode: 'passphrase', kdf: {}, key: { keyId: key.keyId }, enabledAt: 'x' }), holding],
      ['not JSON', '{', holding],
      ['JSON null', 'null', holding],
      ['no key', JSON.stringify({ version: 1, mode: 'keyring' }), holding],
      ['bad account', state({ key: { account: '../etc', keyId: key.keyId } }), holding],
      ['bad key id', state({ key: { account, keyId: 'XYZ' } }), holding],
      ['keychain throws', state(), keys(async () => { throw new Error('locked'); })],
      ['entry missing', state(), keys(async () => undefined)],
      ['another key', state(), keys(async () => Buffer.from(newDataKey().key))],
      ['not a key', state(), keys(async () => Buffer.from('short'))],
    ];
    for (const [what, text, store] of cases) {
      await rm(join(dir, 'encryption.json'), { force: true });
      if (text !== null) await writeFile(join(dir, 'encryption.json'), text);
      expect(await readListingKey(dir, store), what).toBeNull();
    }
  });
});
