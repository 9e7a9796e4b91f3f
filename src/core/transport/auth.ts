import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { NONCE_BYTES, SERVER_PROOF_LABEL } from '../../shared/wire.js';

/**
 * The handshake's arithmetic (formats in src/shared/wire.ts). Nonces travel as base64 of
 * NONCE_BYTES random bytes; proofs as lowercase hex HMAC-SHA256 under the 32-byte token.
 */
export function newNonce(): string {
  return randomBytes(NONCE_BYTES).toString('base64');
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
