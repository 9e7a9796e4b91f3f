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

/** Bytes sealBytes gives for a plaintext of `plainBytes`. */
export function sealedBytes(plainBytes: number): number {
  return NONCE_BYTES + plainBytes + TAG_BYTES;
}

/**
 * nonce, ciphertext, final() (no bytes for GCM), tag: sealBytes' bytes in order, not put together.
 * A writer that gathers or writes them as they are (sealed-stream.ts) saves the copy.
 */
export function sealParts(key: DataKey, plaintext: Uint8Array, aad: string): Buffer[] {
  const nonce = nextNonce();
  const cipher = createCipheriv('aes-256-gcm', key.key, nonce);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  // final() before getAuthTag(), in order.
  return [nonce, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()];
}

export function sealBytes(key: DataKey, plaintext: Uint8Array, aad: string): Buffer {
  return Buffer.concat(sealParts(key, plaintext, aad));
}

/** Sealed bytes up to this many are put together in one buffer kept for that (sealBase64); more are concatenated. */
const SEALED_SCRATCH_BYTES = 64 * 1024;
let sealedScratch: Buffer | undefined;

/**
 * The base64 of sealBytes' bytes, what an envelope line stores (line-envelope.ts): put together in
 * a buffer kept for it rather than a Buffer a record (each record written to an encrypted log
 * comes through here; the concat's allocation was a tenth of a sealed import's sealing). The
 * buffer holds ciphertext only.
 */
export function sealBase64(key: DataKey, plaintext: Uint8Array, aad: string): string {
  const parts = sealParts(key, plaintext, aad);
  let length = 0;
  for (const part of parts) length += part.length;
  if (length > SEALED_SCRATCH_BYTES) return Buffer.concat(parts, length).toString('base64');
  const scratch = (sealedScratch ??= Buffer.allocUnsafeSlow(SEALED_SCRATCH_BYTES));
  let at = 0;
  for (const part of parts) {
    scratch.set(part, at);
    at += part.length;
  }
  return scratch.toString('base64', 0, length);
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
