import { crc32 } from 'node:zlib';

/**
 * Canonical JSON: JSON.stringify with the keys of every plain object sorted, so the same value
 * always gives the same bytes. Used for record checksums and receipt payload hashes.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

/** CRC-32 (zlib polynomial) of the UTF-8 bytes, as 8 lowercase hex digits. */
export function crc32Hex(text: string): string {
  return crc32(text).toString(16).padStart(8, '0');
}
