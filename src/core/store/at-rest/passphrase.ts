import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { StoreError } from '../errors.js';
import { dataKeyOf, KEY_BYTES, type DataKey } from './aead.js';

/**
 * Passphrase mode, for a machine with no secret store: the data key is derived from a passphrase
 * the person types (scrypt), and lives only in the memory of a running host (`baton serve`). The
 * settings file keeps the salt, the scrypt parameters and the key's id (an HMAC of the key, the
 * key check value that refuses a wrong passphrase); never the key and never the passphrase.
 */

/** scrypt cost: 2^15 × 8 × 128 B = 32 MiB and about 0.1 s per derivation; OWASP's minimum is N=2^17/r=8 for interactive logins at 128 MiB, 2^15 suits a CLI on a small box. */
export const SCRYPT_N = 2 ** 15;
export const SCRYPT_R = 8;
export const SCRYPT_P = 1;
export const SALT_BYTES = 16;
/** Largest N a settings file may ask for: a forged file must not make a host allocate gigabytes. */
export const MAX_SCRYPT_N = 2 ** 20;
/** Shortest passphrase accepted when turning the mode on. */
export const MIN_PASSPHRASE_CHARS = 8;
/** Longest passphrase read from a terminal, descriptor or stdin. */
export const MAX_PASSPHRASE_BYTES = 1024;

export const ScryptParams = z.strictObject({
  name: z.literal('scrypt'),
  salt: z.string().regex(/^[A-Za-z0-9+/]{22}==$/, 'expected base64 of 16 bytes'),
  N: z
    .number()
    .int()
    .min(2 ** 14)
    .max(MAX_SCRYPT_N)
    .refine((n) => (n & (n - 1)) === 0, 'N must be a power of two'),
  r: z.number().int().min(1).max(32),
  p: z.number().int().min(1).max(16),
});
export type ScryptParams = z.infer<typeof ScryptParams>;

export function newScryptParams(): ScryptParams {
  return { name: 'scrypt', salt: randomBytes(SALT_BYTES).toString('base64'), N: SCRYPT_N, r: SCRYPT_R, p: SCRYPT_P };
}

export function derivePassphraseKey(passphrase: Buffer, kdf: ScryptParams): Promise<DataKey> {
  return new Promise((done, fail) => {
    // maxmem: 128·N·r plus slack; node refuses anything above its 32 MiB default otherwise.
    scrypt(passphrase, Buffer.from(kdf.salt, 'base64'), KEY_BYTES, { N: kdf.N, r: kdf.r, p: kdf.p, maxmem: 256 * kdf.N * kdf.r }, (error, key) => (error ? fail(error) : done(dataKeyOf(key))));
  });
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
