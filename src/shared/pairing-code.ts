/**
 * The one-time pairing code (issue 13): 20 random bytes = 160 bits, in RFC 4648 base32 without
 * padding (32 characters), shown in groups of four: "ABCD-EFGH-…". Pure: the URL parser and the
 * CLI share it.
 */
export const PAIRING_CODE_BYTES = 20;
export const PAIRING_CODE_CHARS = 32;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function formatPairingCode(bytes: Uint8Array): string {
  if (bytes.length !== PAIRING_CODE_BYTES) throw new RangeError(`a pairing code is ${PAIRING_CODE_BYTES} bytes, got ${bytes.length}`);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return (out.match(/.{4}/g) ?? []).join('-');
}

/** The canonical 32-character form, or null: case, '-' and spaces are forgiven, nothing else. */
export function normalizePairingCode(input: unknown): string | null {
  if (typeof input !== 'string' || input.length > 64) return null;
  const compact = input.replace(/[-\s]/g, '').toUpperCase();
  return /^[A-Z2-7]{32}$/.test(compact) ? compact : null;
}

export function decodePairingCode(normalized: string): Uint8Array {
  const out = new Uint8Array(PAIRING_CODE_BYTES);
  let bits = 0;
  let value = 0;
  let at = 0;
  for (const char of normalized) {
    value = (value << 5) | ALPHABET.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      out[at++] = (value >>> (bits - 8)) & 255;
      bits -= 8;
    }
  }
  return out;
}
