import { crc32 } from 'node:zlib';
import { crc32Hex } from '../canonical.js';
import { hex8At } from '../line-crc.js';

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

/** The line without its '\n', as text (encodeEnvelopeInto writes its UTF-8 bytes). */
export function encodeEnvelope(seq: number | undefined, keyId: string, sealed: Buffer): string {
  const e = sealed.toString('base64');
  const head = seq === undefined ? `{"k":"${keyId}"` : `{"s":${seq},"k":"${keyId}"`;
  return `${head},"e":"${e}","crc":"${crcOf(seq, keyId, e)}"}`;
}

/** `{"s":seq,"k":"keyId","e":"`: what comes before the ciphertext. */
function envelopeHead(seq: number | undefined, keyId: string): string {
  return seq === undefined ? `{"k":"${keyId}","e":"` : `{"s":${seq},"k":"${keyId}","e":"`;
}

/** `","crc":"` + 8 hex digits + `"}`. */
const CRC_TAIL_BYTES = 9 + 8 + 2;
const CRC_TAIL_HEAD = Buffer.from('","crc":"', 'latin1');
const LINE_CLOSE = Buffer.from('"}', 'latin1');

/** Bytes of the envelope line (without '\n') of `sealedBytes` sealed bytes: known before sealing, so a writer can make room first. */
export function envelopeBytes(seq: number | undefined, keyId: string, sealedBytes: number): number {
  return Buffer.byteLength(envelopeHead(seq, keyId), 'utf8') + 4 * Math.ceil(sealedBytes / 3) + CRC_TAIL_BYTES;
}

/**
 * encodeEnvelope's bytes, for sealed bytes whose base64 is `e`, written into `into` at `at` (which
 * has envelopeBytes of room), returning the index after them. For the landing and the append path,
 * which seal every record: the ciphertext's base64 is the one string a line makes and the CRC is
 * run over its bytes where they were written (encodeEnvelope's CRC over its text encoded again,
 * and the line's text encoded again, were a quarter of an encrypted import's sealing).
 */
export function encodeEnvelopeInto(seq: number | undefined, keyId: string, e: string, into: Buffer, at: number): number {
  let end = at + into.write(envelopeHead(seq, keyId), at, 'utf8');
  const eStart = end;
  // Base64 is ASCII: latin1 copies its characters as bytes.
  end += into.write(e, end, 'latin1');
  // crcOf's text is `${seq}.${keyId}.${e}`: the same bytes, the ciphertext's taken where they are.
  const crc = crc32(into.subarray(eStart, end), crc32(`${seq ?? ''}.${keyId}.`));
  end += CRC_TAIL_HEAD.copy(into, end);
  end += into.write(crc.toString(16).padStart(8, '0'), end, 'latin1');
  return end + LINE_CLOSE.copy(into, end);
}

/** encodeEnvelope's bytes in a Buffer of their own. */
export function envelopeLine(seq: number | undefined, keyId: string, sealed: Buffer): Buffer {
  const line = Buffer.allocUnsafe(envelopeBytes(seq, keyId, sealed.length));
  encodeEnvelopeInto(seq, keyId, sealed.toString('base64'), line, 0);
  return line;
}

export function isEnvelope(line: Uint8Array): boolean {
  // Compared byte by byte: a Buffer and two native compares per record cost more than the five bytes.
  if (line.byteLength < 5) return false;
  for (let i = 0; i < 5; i++) if (i !== 2 && line[i] !== PREFIX_SEQ[i]) return false;
  return line[2] === PREFIX_SEQ[2] || line[2] === PREFIX_KEY[2];
}

/** The envelope in `line` (without '\n'), or undefined when it is not one or its CRC fails. */
export function parseEnvelope(line: Uint8Array): Envelope | undefined {
  if (line.byteLength > ENVELOPE_MAX_BYTES || !isEnvelope(line)) return undefined;
  const bytes = Buffer.from(line.buffer, line.byteOffset, line.byteLength);
  const compact = parseCompactEnvelope(bytes);
  return compact === NOT_COMPACT ? parseEnvelopeJson(bytes) : compact;
}

/** parseEnvelope through JSON.parse: any layout JSON allows (and the answer the compact read must agree with). */
export function parseEnvelopeJson(line: Uint8Array): Envelope | undefined {
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

const NOT_COMPACT = Symbol('not the compact layout');
const K_HEAD = Buffer.from('"k":"');
const E_HEAD = Buffer.from('","e":"');
const CRC_HEAD = Buffer.from('","crc":"');
/** Digits of a seq the compact read takes (the JSON read decides longer ones). */
const SEQ_MAX_DIGITS = 15;

/**
 * The envelope of a line exactly as encodeEnvelope writes it, read from its bytes: no JSON.parse
 * and no string of the whole line per record (issue 20: an encrypted `show --all` spent a fifth of
 * its time here), the CRC run over the ciphertext's bytes as they sit. Only printable ASCII without
 * quotes or backslashes in the key id, plain digits for the seq, and base64 for the ciphertext;
 * anything else is NOT_COMPACT and goes to the JSON read, so both always give the same answer
 * (line-envelope.test.ts).
 *
 * The ciphertext is not checked byte by byte (a JS loop over it was a quarter of this read): the
 * base64 decoder skips every byte outside its alphabet, so the text is all alphabet, hence
 * printable ASCII without escapes and read alike by JSON, exactly when the decoded length is the
 * one its length and padding promise (base64Complete).
 */
function parseCompactEnvelope(line: Buffer): Envelope | undefined | typeof NOT_COMPACT {
  let at = 5;
  let seq: number | undefined;
  if (line[2] === 0x73 /* s */) {
    const first = at;
    let value = 0;
    for (let c = line[at]!; c >= 0x30 && c <= 0x39; c = line[++at]!) value = value * 10 + (c - 0x30);
    const digits = at - first;
    if (digits === 0 || digits > SEQ_MAX_DIGITS || (digits > 1 && line[first] === 0x30) || line[at] !== 0x2c /* , */) return NOT_COMPACT;
    seq = value;
    at++;
    if (!startsWith(line, at, K_HEAD)) return NOT_COMPACT;
    at += K_HEAD.length;
  } else {
    // `{"k":` then the key id's opening quote.
    if (line[5] !== 0x22) return NOT_COMPACT;
    at = 6;
  }
  const keyEnd = plainRun(line, at);
  if (keyEnd === -1 || !startsWith(line, keyEnd, E_HEAD)) return NOT_COMPACT;
  const eStart = keyEnd + E_HEAD.length;
  const eEnd = line.indexOf(0x22, eStart);
  if (eEnd === -1 || !startsWith(line, eEnd, CRC_HEAD)) return NOT_COMPACT;
  const crcStart = eEnd + CRC_HEAD.length;
  if (crcStart + 10 !== line.length || line[line.length - 2] !== 0x22 || line[line.length - 1] !== 0x7d) return NOT_COMPACT;
  const crc = hex8At(line, crcStart);
  if (crc === -1) return NOT_COMPACT;
  const sealed = Buffer.from(line.toString('latin1', eStart, eEnd), 'base64');
  if (!base64Complete(line, eStart, eEnd, sealed.length)) return NOT_COMPACT;
  const keyId = line.toString('latin1', at, keyEnd);
  // crcOf's text is `${seq}.${keyId}.${e}`: the same bytes, the ciphertext's taken where they are.
  if (crc32(line.subarray(eStart, eEnd), crc32(`${seq ?? ''}.${keyId}.`)) !== crc) return undefined;
  return { seq, keyId, sealed };
}

/**
 * True when the base64 text at [start, end) decoded to `decoded` bytes with none skipped: a length
 * that is a multiple of 4 (as encodeEnvelope writes it), at most two '=' at its end, and every
 * other byte a sextet. Each byte the decoder skips (outside the alphabet: a quote, a backslash, a
 * control character, anything past ASCII, an '=' before the end) takes at least one byte off the
 * decoded length, so a complete length means nothing was skipped.
 */
function base64Complete(line: Buffer, start: number, end: number, decoded: number): boolean {
  const n = end - start;
  if (n % 4 !== 0) return false;
  let pads = 0;
  if (n > 0 && line[end - 1] === 0x3d /* = */) pads = n > 1 && line[end - 2] === 0x3d ? 2 : 1;
  return decoded === ((n - pads) * 3) >>> 2;
}

function startsWith(line: Buffer, at: number, head: Buffer): boolean {
  for (let i = 0; i < head.length; i++) if (line[at + i] !== head[i]) return false;
  return true;
}

/** Index of the quote ending a run of printable ASCII without `"` or `\` from `at`; -1 when something else comes first. */
function plainRun(line: Buffer, at: number): number {
  const quote = line.indexOf(0x22, at);
  if (quote === -1) return -1;
  for (let i = at; i < quote; i++) {
    const c = line[i]!;
    if (c < 0x20 || c > 0x7e || c === 0x5c) return -1;
  }
  return quote;
}
