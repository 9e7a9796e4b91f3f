import { createHmac, randomFillSync, timingSafeEqual } from 'node:crypto';
import { NONCE_BYTES, SERVER_PROOF_LABEL } from '../../shared/wire-json.js';
import { createRandomPool } from './random-pool.js';

/**
 * The host's side of the handshake (formats in src/shared/wire.ts), on node:crypto. The client's
 * side (auth.ts) computes the same proofs in plain JS to spare a CLI process node:crypto's load;
 * the host (`baton serve`, the desktop app) loads node:crypto anyway, so it keeps it: every hosted
 * connection then checks the client's JS proofs against node:crypto's, and a wrong byte order or
 * encoding on either side fails the handshake instead of agreeing with itself. Its own decoding
 * too, for the same reason. Test: auth.test.ts.
 */
const takeRandom = createRandomPool((pool) => randomFillSync(pool));

/** A hello's nonce: NONCE_BYTES random bytes, base64. */
export function newHostNonce(): string {
  return takeRandom(NONCE_BYTES).toString('base64');
}

/** The proof the client must send for this hello's nonce: HMAC-SHA256(token, nonce bytes), hex. */
export function expectedClientProof(token: Buffer, serverNonce: string): string {
  return createHmac('sha256', token).update(Buffer.from(serverNonce, 'base64')).digest('hex');
}

/** The host's own proof, in its own domain and bound to both nonces of this connection. */
export function hostServerProof(token: Buffer, clientNonce: string, serverNonce: string): string {
  return createHmac('sha256', token)
    .update(SERVER_PROOF_LABEL, 'utf8')
    .update(Buffer.from(clientNonce, 'base64'))
    .update(Buffer.from(serverNonce, 'base64'))
    .digest('hex');
}

/**
 * Constant-time comparison of a received hex proof with the expected one. Both are decoded to
 * 32-byte buffers first; a wrong length is refused before timingSafeEqual (which would throw).
 */
export function hostProofMatches(received: string, expected: string): boolean {
  const a = Buffer.from(received, 'hex');
  const b = Buffer.from(expected, 'hex');
  if (a.length !== 32 || b.length !== 32 || received.length !== 64) return false;
  return timingSafeEqual(a, b);
}
