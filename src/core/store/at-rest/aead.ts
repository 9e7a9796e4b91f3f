import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/** AES-256-GCM with a fresh random 96-bit nonce per seal: nonce ‖ ciphertext ‖ 128-bit tag. */
export const KEY_BYTES = 32;
export const NONCE_BYTES = 12;
export const TAG_BYTES = 16;

/** The data key and its public id (an HMAC of the key, so the id reveals nothing about it). */
export interface DataKey {
  key: Buffer;
  keyId: string;
}

export function dataKeyOf(key: Buffer): DataKey {
  if (key.length !== KEY_BYTES) throw new Error(`A data key is ${KEY_BYTES} bytes, not ${key.length}.`);
  return { key, keyId: createHmac('sha256', key).update('baton-key-id-v1').digest('hex').slice(0, 16) };
}

export function newDataKey(): DataKey {
  return dataKeyOf(randomBytes(KEY_BYTES));
}

/** Nonces drawn from the CSPRNG this many at a time: one call per record cost more than the cipher itself. */
export const NONCE_POOL = 4096;
let pool = Buffer.alloc(0);
let poolAt = 0;

/** A fresh random 96-bit nonce (each byte of the pool is handed out once). */
function nextNonce(): Buffer {
  if (poolAt + NONCE_BYTES > pool.length) {
    pool = randomBytes(NONCE_BYTES * NONCE_POOL);
    poolAt = 0;
  }
  const nonce = pool.subarray(poolAt, poolAt + NONCE_BYTES);
  poolAt += NONCE_BYTES;
  return nonce;
}

export function sealBytes(key: DataKey, plaintext: Uint8Array, aad: string): Buffer {
  const nonce = nextNonce();
  const cipher = createCipheriv('aes-256-gcm', key.key, nonce);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  // One copy of the ciphertext into its place (GCM's final() yields no bytes): two concats were
  // two more, a whole file's worth each when a file is sealed whole.
  const body = cipher.update(plaintext);
  cipher.final();
  const out = Buffer.allocUnsafe(NONCE_BYTES + body.length + TAG_BYTES);
  out.set(nonce, 0);
  out.set(body, NONCE_BYTES);
  out.set(cipher.getAuthTag(), NONCE_BYTES + body.length);
  return out;
}

/** The plaintext, or undefined when the bytes were changed, belong elsewhere (aad) or to another key. */
export function openBytes(key: DataKey, sealed: Uint8Array, aad: string): Buffer | undefined {
  if (sealed.length < NONCE_BYTES + TAG_BYTES) return undefined;
  const buf = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, buf.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(buf.subarray(buf.length - TAG_BYTES));
    // GCM's final() yields no bytes (it checks the tag): no concat, one buffer less per record.
    const plain = decipher.update(buf.subarray(NONCE_BYTES, buf.length - TAG_BYTES));
    decipher.final();
    return plain;
  } catch {
    return undefined;
  }
}
