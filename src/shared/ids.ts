/**
 * Ids travel in URLs, file names and process arguments, so they are restricted to a safe alphabet:
 * no path separators, no leading '-', no whitespace or control characters.
 */
export const ID_MAX_LENGTH = 128;
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function isValidId(value: unknown): value is string {
  return typeof value === 'string' && value.length <= ID_MAX_LENGTH && ID_PATTERN.test(value) && !value.includes('..');
}

/** Random bytes fetched per CSPRNG call: one call per 512 ids (a 100,000-message landing made 100,000 calls). */
const RANDOM_POOL_BYTES = 4096;
const pool = new Uint8Array(RANDOM_POOL_BYTES);
let poolAt = RANDOM_POOL_BYTES;
const HEX_BYTE = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Fresh CSPRNG bytes, `size` of them, never handed out twice (a caller's own pool). */
export type RandomBytes = (size: number) => Uint8Array;

/** Random bytes in an id: 16 hex characters. */
const ID_RANDOM_BYTES = 8;

/**
 * A random, sortable-enough id: time prefix (base36) + 16 random hex characters. `take` names
 * where the random bytes come from; by default Web Crypto's `getRandomValues`, whose first call
 * loads node:crypto (a dozen modules, 3–10 ms of a short process's CPU). The hosted handoff's
 * client draws from the pool its handshake already reads from /dev/urandom (src/cli/handoff-fast.ts).
 */
export function newId(prefix = '', take?: RandomBytes): string {
  let random = '';
  if (take) {
    const bytes = take(ID_RANDOM_BYTES);
    for (let i = 0; i < ID_RANDOM_BYTES; i++) random += HEX_BYTE[bytes[i]!];
  } else {
    if (poolAt + ID_RANDOM_BYTES > RANDOM_POOL_BYTES) {
      globalThis.crypto.getRandomValues(pool);
      poolAt = 0;
    }
    for (let i = 0; i < ID_RANDOM_BYTES; i++) random += HEX_BYTE[pool[poolAt++]!];
  }
  return `${prefix}${Date.now().toString(36)}-${random}`;
}
