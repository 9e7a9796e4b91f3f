/**
 * Ids travel in URLs, file names and process arguments, so they are restricted to a safe alphabet:
 * no path separators, no leading '-', no whitespace or control characters.
 */
export const ID_MAX_LENGTH = 128;
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function isValidId(value: unknown): value is string {
  return typeof value === 'string' && value.length <= ID_MAX_LENGTH && ID_PATTERN.test(value) && !value.includes('..');
}

/** A random, sortable-enough id: time prefix (base36) + 16 random hex characters. */
export function newId(prefix = ''): string {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  const random = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${prefix}${Date.now().toString(36)}-${random}`;
}
