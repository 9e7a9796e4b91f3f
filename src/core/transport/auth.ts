import { randomFillSync } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { NONCE_BYTES, SERVER_PROOF_LABEL } from '../../shared/wire-json.js';
import { equalInConstantTime, hexOf, hmacSha256 } from '../../shared/hmac-sha256.js';
import { createRandomPool } from './random-pool.js';

/**
 * The client's side of the handshake (formats in src/shared/wire.ts). Nonces travel as base64 of
 * NONCE_BYTES random bytes; proofs as lowercase hex HMAC-SHA256 under the 32-byte token.
 *
 * Nothing here loads node:crypto on Unix (the CLI bundles load it on first use): the proofs are
 * hmac-sha256.ts and the random bytes come from the kernel's /dev/urandom. A hosted
 * `baton list --json` or picker then never pays node:crypto's 17 modules (5–13 ms of CPU) to
 * answer its host's hello (bench/README.md, "Fourteenth sitting"). The host checks these proofs
 * with node:crypto's (host-auth.ts), so every hosted test compares the two.
 */

/** The kernel's CSPRNG as a file; where there is none (Windows, a sandbox without /dev), node:crypto's. */
export const URANDOM = '/dev/urandom';

/** The reads and the close fillRandom makes on the device: node:fs's, or a test's that fail on demand. */
export interface DeviceCalls {
  read(fd: number, into: Buffer, offset: number, length: number): number;
  close(fd: number): void;
}
const NODE_CALLS: DeviceCalls = { read: (fd, into, offset, length) => readSync(fd, into, offset, length, null), close: closeSync };

/**
 * Fills `target` with cryptographically strong random bytes: `device`'s (the kernel's
 * /dev/urandom unless a test names another) when it is a character device that gives every
 * byte, else node:crypto's. Never throws for the device: it is called from a socket's 'data'
 * handler (client.ts, the hello's answer), where a throw would end the process.
 */
export function fillRandom(target: Buffer, device = URANDOM, calls: DeviceCalls = NODE_CALLS): void {
  if (process.platform !== 'win32' && filledFromDevice(target, device, calls)) return;
  randomFillSync(target); // overwrites whatever the device gave
}

function filledFromDevice(target: Buffer, device: string, calls: DeviceCalls): boolean {
  let fd: number | undefined;
  try {
    // Non-blocking: a FIFO at that path would otherwise block the open until a writer came.
    fd = openSync(device, constants.O_RDONLY | constants.O_NONBLOCK);
    // Only a character device: a regular file would hand out the same bytes every time.
    if (!fstatSync(fd).isCharacterDevice()) return false;
    for (let filled = 0; filled < target.length; ) {
      const read = calls.read(fd, target, filled, target.length - filled);
      if (read <= 0) return false; // ended short (/dev/null)
      filled += read;
    }
    // A device of zeros (/dev/zero in its place) is no CSPRNG: the pool's 4 KiB of zeros from one
    // never happens, and node:crypto's draw instead is as uniform on its own.
    return target.some((byte) => byte !== 0);
  } catch {
    return false; // missing, unreadable, a read that failed
  } finally {
    // A failed close loses nothing read: the bytes came whole from the device, or are replaced.
    if (fd !== undefined) {
      try {
        calls.close(fd);
      } catch {
        // the descriptor is the kernel's to reclaim
      }
    }
  }
}

/** Fresh random bytes from /dev/urandom's pool (random-pool.ts). */
export const takeRandom = createRandomPool((pool) => fillRandom(pool));

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
