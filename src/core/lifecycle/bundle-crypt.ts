import { createCipheriv, createDecipheriv, randomBytes, scrypt as scryptCb, type ScryptOptions } from 'node:crypto';
import type { DeviceIdentity } from '../crypto/identity.js';
import type { PairedDevice } from '../crypto/peers.js';
import { openBinary, sealBinary } from '../crypto/seal.js';

/**
 * The optional outer layer of a bundle file. A passphrase: scrypt → AES-256-GCM, the header bound
 * as associated data. A paired device: the relay's own sealing (sealBinary, "BSL1"), so only that
 * device's key opens it and the envelope is signed by this one. A clear bundle is the gzip itself.
 */
const PASS_MAGIC = Buffer.from('BATONPW1');
const SALT_BYTES = 16;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** scrypt cost 2^15 (about 0.1 s here), r 8, p 1: the parameters travel in the header. */
export const SCRYPT_LOG_N = 15;
export const SCRYPT_MAX_LOG_N = 20;
const SEALED_KIND = 'bundle';
const SEALED_CONTEXT = 'baton-export-v1';

export type BundleWrapping = 'plain' | 'passphrase' | 'device';

export function wrappingOf(bytes: Buffer): BundleWrapping | 'unknown' {
  if (bytes.subarray(0, PASS_MAGIC.length).equals(PASS_MAGIC)) return 'passphrase';
  if (bytes.subarray(0, 4).toString('latin1') === 'BSL1') return 'device';
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return 'plain';
  return 'unknown';
}

/** scrypt(NFC passphrase, salt) → 32 bytes, r 8, p 1; shared with the at-rest passphrase mode. */
export function deriveKey(passphrase: string, salt: Buffer, logN: number): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** logN, r: 8, p: 1, maxmem: 256 * 2 ** logN * 8 + 1024 * 1024 };
  return new Promise((resolve, reject) => scryptCb(passphrase.normalize('NFC'), salt, 32, options, (err, key) => (err ? reject(err) : resolve(key))));
}

export async function encryptWithPassphrase(plain: Buffer, passphrase: string, logN = SCRYPT_LOG_N): Promise<Buffer> {
  const salt = randomBytes(SALT_BYTES);
  const header = Buffer.concat([PASS_MAGIC, salt, Buffer.from([logN])]);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', await deriveKey(passphrase, salt, logN), iv);
  cipher.setAAD(header);
  return Buffer.concat([header, iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

export type Unwrapped = { ok: true; plain: Buffer; sealedBy?: string } | { ok: false; code: string; message: string };

export async function decryptWithPassphrase(bytes: Buffer, passphrase: string): Promise<Unwrapped> {
  const headerLength = PASS_MAGIC.length + SALT_BYTES + 1;
  if (bytes.length < headerLength + IV_BYTES + TAG_BYTES) return { ok: false, code: 'TRUNCATED', message: 'The encrypted bundle is truncated.' };
  const logN = bytes[headerLength - 1]!;
  if (logN < 10 || logN > SCRYPT_MAX_LOG_N) return { ok: false, code: 'NOT_A_BUNDLE', message: `The encrypted bundle asks for scrypt cost 2^${logN}; Baton accepts 2^10..2^${SCRYPT_MAX_LOG_N}.` };
  const header = bytes.subarray(0, headerLength);
  const key = await deriveKey(passphrase, bytes.subarray(PASS_MAGIC.length, PASS_MAGIC.length + SALT_BYTES), logN);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(headerLength, headerLength + IV_BYTES));
    decipher.setAAD(header);
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return { ok: true, plain: Buffer.concat([decipher.update(bytes.subarray(headerLength + IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]) };
  } catch {
    return { ok: false, code: 'WRONG_PASSPHRASE', message: 'The passphrase does not open this bundle (or the file was changed).' };
  }
}

export function sealForDevice(plain: Buffer, sender: DeviceIdentity, recipient: PairedDevice): Buffer {
  return sealBinary({ sender, recipient, kind: SEALED_KIND, context: SEALED_CONTEXT, plaintext: plain });
}

/** Opens a bundle sealed to this device; the sender must be a paired device (or this device itself). */
export function openSealedBundle(bytes: Buffer, me: DeviceIdentity, peers: readonly PairedDevice[]): Unwrapped {
  const opened = openBinary(bytes, { recipient: me, kind: SEALED_KIND, context: SEALED_CONTEXT, signingKeyOf: (id) => (id === me.deviceId ? me.signingKey : peers.find((p) => p.deviceId === id)?.signingKey) });
  if (!opened.ok) return { ok: false, code: opened.code, message: opened.message };
  return { ok: true, plain: opened.plaintext, sealedBy: opened.from };
}
