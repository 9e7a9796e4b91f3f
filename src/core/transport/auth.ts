import { createHmac, randomFillSync, timingSafeEqual } from 'node:crypto';
import { NONCE_BYTES, SERVER_PROOF_LABEL } from '../../shared/wire-json.js';

/**
 * The handshake's arithmetic (formats in src/shared/wire.ts). Nonces travel as base64 of
 * NONCE_BYTES random bytes; proofs as lowercase hex HMAC-SHA256 under the 32-byte token.
 */
/**
 * Random bytes drawn from a pool refilled 4 KiB at a time: one CSPRNG call serves 128 nonces,
 * which takes a measurable share off each handshake. Bytes are handed out once, never reused.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolOffset = POOL_BYTES;

export function takeRandom(size: number): Buffer {
  if (size > POOL_BYTES) throw new RangeError(`takeRandom: at most ${POOL_BYTES} bytes at a time`);
  if (poolOffset + size > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const out = Buffer.from(pool.subarray(poolOffset, poolOffset + size)); // a copy, not a view
  pool.fill(0, poolOffset, poolOffset + size);
  poolOffset += size;
  return out;
}

export function newNonce(): string {
  return takeRandom(NONCE_BYTES).toString('base64');
}

/** A request id: 12 random bytes, base64url (16 characters of the RequestId alphabet). */
export function newRequestId(): string {
  return takeRandom(12).toString('base64url');
}

function decodeNonce(nonce: string): Buffer {
  return Buffer.from(nonce, 'base64');
}

/** The client's proof: HMAC-SHA256(token, nonce bytes). */
export function clientProof(token: Buffer, serverNonce: string): string {
  return createHmac('sha256', token).update(decodeNonce(serverNonce)).digest('hex');
}

/** The server's proof, in its own domain and bound to both nonces of this connection. */
export function serverProof(token: Buffer, clientNonce: string, serverNonce: string): string {
  return createHmac('sha256', token)
    .update(SERVER_PROOF_LABEL, 'utf8')
    .update(decodeNonce(clientNonce))
    .update(decodeNonce(serverNonce))
    .digest('hex');
}

/**
 * Constant-time comparison of a received hex proof with the expected one. Both are decoded to
 * 32-byte buffers first; a wrong length is refused before timingSafeEqual (which would throw).
 */
export function proofMatches(received: string, expected: string): boolean {
  const a = Buffer.from(received, 'hex');
  const b = Buffer.from(expected, 'hex');
  if (a.length !== 32 || b.length !== 32 || received.length !== 64) return false;
  return timingSafeEqual(a, b);
}
