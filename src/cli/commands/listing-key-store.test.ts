import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../core/store/index.js';
import { ENCRYPTION_FILE } from '../../core/store/at-rest/at-rest-state.js';
import type { KeyStore } from '../../core/store/at-rest/key-store.js';
import { listingKeyStore } from './listing-key-store.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-listing-keys-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A working secret store in memory, counting the writes it is asked for. */
function memoryKeys(): KeyStore & { writes: number } {
  const secrets = new Map<string, Buffer>();
  const keys = {
    label: 'memory',
    writes: 0,
    read: async (a: string) => secrets.get(a),
    write: async (a: string, s: Buffer) => {
      keys.writes += 1;
      secrets.set(a, Buffer.from(s));
    },
    remove: async (a: string) => secrets.delete(a),
  };
  return keys;
}

describe('the key store a listing opens the store with', () => {
  it('creates no key for a new store, and the next writing open turns encryption on as before', async () => {
    const dir = join(root, 'new');
    const keys = memoryKeys();
    const listing = await openStore(dir, { keyStore: listingKeyStore(keys) });
    expect(listing.atRest.state).toBe('off');
    expect(await listing.list({ includeArchived: true })).toEqual([]);
    await listing.close();
    expect(keys.writes).toBe(0);
    expect(existsSync(join(dir, ENCRYPTION_FILE))).toBe(false);

    const writer = await openStore(dir, { keyStore: keys });
    expect(writer.atRest.state).toBe('on');
    await writer.close();
    expect(keys.writes).toBe(1);
    expect(existsSync(join(dir, ENCRYPTION_FILE))).toBe(true);
  });

  it('reads the key of an encrypted store: the listing opens it encrypted, with the same key', async () => {
    const dir = join(root, 'sealed');
    const keys = memoryKeys();
    const writer = await openStore(dir, { keyStore: keys });
    const keyId = writer.atRest.state === 'on' ? writer.atRest.keyId : null;
    await writer.close();
    expect(keyId).not.toBeNull();
    const listing = await openStore(dir, { keyStore: listingKeyStore(keys) });
    expect(listing.atRest).toMatchObject({ state: 'on', keyId, keyStore: 'memory' });
    await listing.close();
    expect(keys.writes).toBe(1);
  });

  it('refuses to write or create, and passes reads and removals through', async () => {
    const keys = memoryKeys();
    await keys.write('a', Buffer.from('secret'));
    const wrapped = listingKeyStore(keys);
    expect(wrapped.label).toBe('memory');
    expect((await wrapped.read('a'))?.toString()).toBe('secret');
    await expect(wrapped.write('b', Buffer.from('x'))).rejects.toThrow('a listing does not create keys');
    expect(await wrapped.read('b')).toBeUndefined();
    expect(await wrapped.remove('a')).toBe(true);
    expect(keys.writes).toBe(1);
  });
});
