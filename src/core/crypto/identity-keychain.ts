import { createPrivateKey, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { builtOnFirstUse } from '../../shared/built-on-first-use.js';
import type { KeyStore } from '../store/at-rest/key-store.js';

/**
 * The device's private keys (X25519 for sealing, Ed25519 for signing) as one keychain secret, so
 * identity.json keeps only the public part and the entry's name (issue 17: "never persist keys to
 * disk"). The secret is a small JSON of both PKCS#8 PEMs; the account is per device id, so two
 * data directories on one machine never share an entry.
 */
export const DEVICE_KEY_ACCOUNT_PREFIX = 'device-key-';
/** A keychain secret larger than this is not one Baton wrote. */
export const DEVICE_SECRET_MAX_BYTES = 4096;

const DeviceSecret = builtOnFirstUse(() => z.strictObject({ version: z.literal(1), encryptionPrivatePem: z.string().min(1), signingPrivatePem: z.string().min(1) }));
export type DevicePrivateKeys = { encryptionPrivate: KeyObject; signingPrivate: KeyObject };

export function deviceKeyAccount(deviceId: string): string {
  return `${DEVICE_KEY_ACCOUNT_PREFIX}${deviceId}`;
}

function encode(keys: DevicePrivateKeys): Buffer {
  const secret = {
    version: 1,
    encryptionPrivatePem: keys.encryptionPrivate.export({ format: 'pem', type: 'pkcs8' }).toString(),
    signingPrivatePem: keys.signingPrivate.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
  return Buffer.from(JSON.stringify(secret), 'utf8');
}

/**
 * Writes the private keys to the keychain and reads them back: the caller only drops them from
 * disk once the keychain has proved it holds them (a store that silently drops writes must not be
 * trusted with the only copy). Throws when the keychain cannot be reached or returns other bytes.
 */
export async function storeDeviceKeys(keys: KeyStore, account: string, privateKeys: DevicePrivateKeys): Promise<void> {
  const bytes = encode(privateKeys);
  await keys.write(account, bytes);
  const back = await keys.read(account);
  if (!back || !back.equals(bytes)) throw new Error(`the ${keys.label} did not return the device keys it was given (${account})`);
}

/** The private keys under `account`; a precise error naming the entry and `where` (identity.json) otherwise. */
export async function loadDeviceKeys(keys: KeyStore | null, account: string, where: string): Promise<DevicePrivateKeys> {
  const fail = (why: string, cause?: unknown): never => {
    throw Object.assign(new Error(`The private keys of the device identity at ${where} are kept in the OS keychain (${account}), and ${why}. Unlock the keychain and retry, or move ${where} away to make a new identity (pair again).`), { code: 'IDENTITY_KEY_UNAVAILABLE', cause });
  };
  if (!keys) return fail('no secret store is available to read them');
  let secret: Buffer | undefined;
  try {
    secret = await keys.read(account);
  } catch (error) {
    return fail(`the ${keys.label} could not be read: ${(error as Error).message}`, error);
  }
  if (!secret) return fail(`the ${keys.label} has no such entry`);
  if (secret.length > DEVICE_SECRET_MAX_BYTES) return fail(`the ${keys.label} entry is ${secret.length} bytes, over ${DEVICE_SECRET_MAX_BYTES}: not one Baton wrote`);
  try {
    const parsed = DeviceSecret.parse(JSON.parse(secret.toString('utf8')));
    return { encryptionPrivate: createPrivateKey(parsed.encryptionPrivatePem), signingPrivate: createPrivateKey(parsed.signingPrivatePem) };
  } catch (error) {
    return fail(`the ${keys.label} entry is not a Baton device key (${(error as Error).message})`, error);
  }
}
