import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dataKeyOf, type DataKey } from './aead.js';
import { osKeyStore, type KeyStore } from './key-store.js';

/** encryption.json's name (at-rest-state.ts ENCRYPTION_FILE; not imported: that module builds zod schemas at load). */
const ENCRYPTION_FILE = 'encryption.json';
const ACCOUNT = /^data-key-[0-9a-f]{16,64}$/;
const KEY_ID = /^[0-9a-f]{16}$/;

/**
 * The data key a `baton list` needs to open the host's sealed listing (sealed-listing.ts), read
 * from the OS keychain the way the store's open reads it, without opening the store: the hosted
 * listing's bundle stays free of zod and the store. Null whenever the key cannot be had here
 * (no encryption.json, passphrase mode: only the host holds that key, keychain locked or missing,
 * or an entry holding another key): the caller then asks the host for the listing's socket parts.
 */
export async function readListingKey(dataDir: string, keys: KeyStore = osKeyStore()): Promise<DataKey | null> {
  let state: unknown;
  try {
    state = JSON.parse(await readFile(join(dataDir, ENCRYPTION_FILE), 'utf8'));
  } catch {
    return null;
  }
  if (typeof state !== 'object' || state === null) return null;
  const { mode, key: ref } = state as { mode?: unknown; key?: { account?: unknown; keyId?: unknown } | null };
  if (mode !== 'keyring' || typeof ref?.account !== 'string' || typeof ref.keyId !== 'string') return null;
  if (!ACCOUNT.test(ref.account) || !KEY_ID.test(ref.keyId)) return null;
  try {
    const secret = await keys.read(ref.account);
    const key = secret && dataKeyOf(secret);
    return key && key.keyId === ref.keyId ? key : null;
  } catch {
    return null;
  }
}
