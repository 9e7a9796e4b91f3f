import { crc32 } from 'node:zlib';
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

const KEY_FIELD = Buffer.from(',"k":"');
const E_FIELD = Buffer.from('","e":"');
const CRC_FIELD = Buffer.from('","crc":"');
const KEY_ID_CHARS = 16;
const CRC_CHARS = 8;
const DOT = Buffer.from('.');
const HEX8 = /^[0-9a-f]{8}$/;

/**
 * parseEnvelope for the layout encodeEnvelope writes, read by position: no JSON.parse, no string
 * built for the CRC (it runs over the line's own bytes, piece by piece). bench/store/record-open.ts
 * measured the JSON parse and the string CRC as costly as the decipher itself, once per record on
 * every read-back and `show`. Same answers as parseEnvelope (line-envelope.test.ts); any other
 * layout goes to parseEnvelope.
 */
export function envelopeToOpen(line: Uint8Array): Envelope | undefined {
  const buf = Buffer.from(line.buffer, line.byteOffset, line.byteLength);
  if (buf.length > ENVELOPE_MAX_BYTES || !buf.subarray(0, PREFIX_SEQ.length).equals(PREFIX_SEQ)) return parseEnvelope(line);
  let at = PREFIX_SEQ.length;
  let seq = 0;
  const digitsFrom = at;
  for (; at < buf.length && buf[at]! >= 0x30 && buf[at]! <= 0x39 && at - digitsFrom < 16; at++) seq = seq * 10 + (buf[at]! - 0x30);
  const keyAt = at + KEY_FIELD.length;
  const eAt = keyAt + KEY_ID_CHARS + E_FIELD.length;
  const crcEnd = buf.length - 2; // `"}`
  const eEnd = crcEnd - CRC_CHARS - CRC_FIELD.length;
  if (
    at === digitsFrom ||
    (buf[digitsFrom] === 0x30 && at - digitsFrom > 1) ||
    !Number.isSafeInteger(seq) ||
    eEnd < eAt ||
    buf[crcEnd] !== 0x22 ||
    buf[crcEnd + 1] !== 0x7d ||
    !buf.subarray(at, keyAt).equals(KEY_FIELD) ||
    !buf.subarray(keyAt + KEY_ID_CHARS, eAt).equals(E_FIELD) ||
    !buf.subarray(eEnd, eEnd + CRC_FIELD.length).equals(CRC_FIELD)
  ) {
    return parseEnvelope(line);
  }
  // The CRC of `${seq}.${keyId}.${e}` (crcOf), over the bytes in place: all of them ASCII.
  let crc = crc32(buf.subarray(digitsFrom, at));
  crc = crc32(DOT, crc);
  crc = crc32(buf.subarray(keyAt, keyAt + KEY_ID_CHARS), crc);
  crc = crc32(DOT, crc);
  crc = crc32(buf.subarray(eAt, eEnd), crc);
  const stated = Number.parseInt(buf.toString('latin1', eEnd + CRC_FIELD.length, crcEnd), 16);
  if (!HEX8.test(buf.toString('latin1', eEnd + CRC_FIELD.length, crcEnd)) || stated !== crc) return undefined;
  return { seq, keyId: buf.toString('latin1', keyAt, keyAt + KEY_ID_CHARS), sealed: Buffer.from(buf.toString('latin1', eAt, eEnd), 'base64') };
}
