import { randomFillSync } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { NONCE_BYTES, SERVER_PROOF_LABEL } from '../../shared/wire-json.js';
import { equalInConstantTime, hexOf, hmacSha256 } from '../../shared/hmac-sha256.js';

/**
 * The handshake's arithmetic (formats in src/shared/wire.ts). Nonces travel as base64 of
 * NONCE_BYTES random bytes; proofs as lowercase hex HMAC-SHA256 under the 32-byte token.
 *
 * Nothing here loads node:crypto on Unix (the CLI bundles load it on first use): the proofs are
 * hmac-sha256.ts and the random bytes come from the kernel's /dev/urandom. A hosted
 * `baton list --json` or picker then never pays node:crypto's 17 modules (5–13 ms of CPU) to
 * answer its host's hello (bench/README.md, "Fourteenth sitting").
 */
/**
 * Random bytes drawn from a pool refilled 4 KiB at a time: one CSPRNG call serves 128 nonces,
 * which takes a measurable share off each handshake. Bytes are handed out once, never reused.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolOffset = POOL_BYTES;

/** The kernel's CSPRNG as a file; where there is none (Windows, a sandbox without /dev), node:crypto's. */
const URANDOM = '/dev/urandom';

/** Fills `target` with cryptographically strong random bytes. */
export function fillRandom(target: Buffer): void {
  if (process.platform !== 'win32') {
    let fd: number | undefined;
    try {
      fd = openSync(URANDOM, 'r');
      // Only the kernel's device: a regular file at that path would hand out the same bytes.
      if (!fstatSync(fd).isCharacterDevice()) throw new Error(`${URANDOM} is not a device`);
      for (let filled = 0; filled < target.length; ) {
        const read = readSync(fd, target, filled, target.length - filled, null);
        if (read <= 0) throw new Error(`${URANDOM} ended`);
        filled += read;
      }
      return;
    } catch {
      // No usable /dev/urandom: node:crypto below overwrites whatever was read.
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
  randomFillSync(target);
}

export function takeRandom(size: number): Buffer {
  if (size > POOL_BYTES) throw new RangeError(`takeRandom: at most ${POOL_BYTES} bytes at a time`);
  if (poolOffset + size > POOL_BYTES) {
    fillRandom(pool);
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
  return hexOf(hmacSha256(token, decodeNonce(serverNonce)));
}

/** The server's proof, in its own domain and bound to both nonces of this connection. */
export function serverProof(token: Buffer, clientNonce: string, serverNonce: string): string {
  return hexOf(hmacSha256(token, Buffer.from(SERVER_PROOF_LABEL, 'utf8'), decodeNonce(clientNonce), decodeNonce(serverNonce)));
}

/**
 * Constant-time comparison of a received hex proof with the expected one. Both are decoded to
 * 32-byte buffers first; a wrong length is refused before the comparison.
 */
export function proofMatches(received: string, expected: string): boolean {
  const a = Buffer.from(received, 'hex');
  const b = Buffer.from(expected, 'hex');
  if (a.length !== 32 || b.length !== 32 || received.length !== 64) return false;
  return equalInConstantTime(a, b);
}
