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

/** A random, sortable-enough id: time prefix (base36) + 16 random hex characters. */
export function newId(prefix = ''): string {
  if (poolAt + 8 > RANDOM_POOL_BYTES) {
    globalThis.crypto.getRandomValues(pool);
    poolAt = 0;
  }
  let random = '';
  for (let i = 0; i < 8; i++) random += HEX_BYTE[pool[poolAt++]!];
  return `${prefix}${Date.now().toString(36)}-${random}`;
}
