import { randomBytes, timingSafeEqual } from 'node:crypto';
import { join, resolve } from 'node:path';
import { StoreError } from '../errors.js';
import { deriveKey, SCRYPT_LOG_N } from '../../lifecycle/bundle-crypt.js';
import { dataKeyOf, type DataKey } from './aead.js';
import type { ScryptParams } from './settings-file.js';

/**
 * Passphrase mode, for a machine with no secret store: the data key is derived from a passphrase
 * the person types (scrypt), and lives only in the memory of a running host (`baton serve`). The
 * settings file keeps the salt, the scrypt parameters and the key's id (an HMAC of the key, the
 * key check value that refuses a wrong passphrase); never the key and never the passphrase.
 */

/** The data key is derived as a passphrase bundle's is (lifecycle/bundle-crypt.ts): scrypt, r 8, p 1, cost 2^15 (32 MiB, about 0.1 s). */
export const SALT_BYTES = 16;
/** Shortest passphrase accepted when turning the mode on. */
export const MIN_PASSPHRASE_CHARS = 8;
/** Longest passphrase read from a terminal, descriptor or stdin. */
export const MAX_PASSPHRASE_BYTES = 1024;

export function newScryptParams(): ScryptParams {
  return { name: 'scrypt', salt: randomBytes(SALT_BYTES).toString('base64'), logN: SCRYPT_LOG_N, r: 8, p: 1 };
}

export async function derivePassphraseKey(passphrase: Buffer, kdf: ScryptParams): Promise<DataKey> {
  return dataKeyOf(await deriveKey(passphrase.toString('utf8'), Buffer.from(kdf.salt, 'base64'), kdf.logN));
}

/** The key for the settings' kdf, checked against its key id: a wrong passphrase is refused (KEY_UNAVAILABLE) before anything is written. */
export async function unlockWithPassphrase(root: string, kdf: ScryptParams, keyId: string, passphrase: Buffer): Promise<DataKey> {
  const key = await derivePassphraseKey(passphrase, kdf);
  const want = Buffer.from(keyId);
  const got = Buffer.from(key.keyId);
  if (want.length !== got.length || !timingSafeEqual(want, got)) {
    throw new StoreError('KEY_UNAVAILABLE', `Wrong passphrase for the encrypted store ${root}: refused, nothing was written.`, join(root, 'encryption.json'));
  }
  return key;
}

/** Keys this process holds, by data directory: only a host unlocks (serve, at its start); the CLI asks the host. */
const held = new Map<string, DataKey>();

export function holdPassphraseKey(root: string, key: DataKey): void {
  held.set(resolve(root), key);
}

export function heldPassphraseKey(root: string): DataKey | undefined {
  return held.get(resolve(root));
}

/**
 * "Lock": the host forgets the key (after closing its store). The buffer is not zeroed: a read
 * still in flight on the closed store would then decrypt with zeros and quarantine good records as
 * damage; dropping the last reference is what a garbage-collected runtime offers.
 */
export function dropPassphraseKey(root: string): void {
  held.delete(resolve(root));
}
