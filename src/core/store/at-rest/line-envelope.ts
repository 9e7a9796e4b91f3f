import { crc32Hex } from '../canonical.js';

/**
 * One encrypted line of a store log: `{"s":seq,"k":keyId,"e":base64(nonce‖ciphertext‖tag),"crc":…}`.
 * The CRC is over the bytes as they sit on disk (seq, key id and ciphertext), so the torn-tail and
 * mid-file recovery of the logs see a damaged line exactly as before, without the key; `s` is
 * present for message records only (their seq is bound into the associated data and paged reads
 * bisect on it). Authentication is the cipher's job, the CRC only tells whole lines from torn ones.
 */
export interface Envelope {
  seq: number | undefined;
  keyId: string;
  sealed: Buffer;
}

const PREFIX_SEQ = Buffer.from('{"s":');
const PREFIX_KEY = Buffer.from('{"k":');
/** Longest line an envelope may be (a record is bounded far below this by the store). */
export const ENVELOPE_MAX_BYTES = 256 * 1024 * 1024;

function crcOf(seq: number | undefined, keyId: string, e: string): string {
  return crc32Hex(`${seq ?? ''}.${keyId}.${e}`);
}

/** The line without its '\n'. */
export function encodeEnvelope(seq: number | undefined, keyId: string, sealed: Buffer): string {
  const e = sealed.toString('base64');
  const head = seq === undefined ? `{"k":"${keyId}"` : `{"s":${seq},"k":"${keyId}"`;
  return `${head},"e":"${e}","crc":"${crcOf(seq, keyId, e)}"}`;
}

export function isEnvelope(line: Uint8Array): boolean {
  const b = Buffer.from(line.buffer, line.byteOffset, Math.min(line.byteLength, 5));
  return b.equals(PREFIX_SEQ) || b.equals(PREFIX_KEY);
}

/** The envelope in `line` (without '\n'), or undefined when it is not one or its CRC fails. */
export function parseEnvelope(line: Uint8Array): Envelope | undefined {
  if (line.byteLength > ENVELOPE_MAX_BYTES || !isEnvelope(line)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(line.buffer, line.byteOffset, line.byteLength).toString('utf8'));
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { s, k, e, crc } = value as Record<string, unknown>;
  if (s !== undefined && (typeof s !== 'number' || !Number.isInteger(s) || s < 0)) return undefined;
  if (typeof k !== 'string' || typeof e !== 'string' || typeof crc !== 'string') return undefined;
  if (crcOf(s as number | undefined, k, e) !== crc) return undefined;
  return { seq: s as number | undefined, keyId: k, sealed: Buffer.from(e, 'base64') };
}
