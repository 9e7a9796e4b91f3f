import type { MessageRecord } from '../../shared/message.js';
import { canonicalJson, crc32Hex } from './canonical.js';
import { checkLineCrc, LINE_CRC_KEY, sealLine } from './line-crc.js';

/**
 * One line of messages.jsonl: the record as JSON plus '\n', checked by a CRC-32. Lines written
 * now carry it over their own bytes as written (line-crc.ts: one serialisation to write, one
 * parse to read); lines of the earlier format carry `crc` over the canonical JSON (sorted keys,
 * see canonical.ts) of the record without it, and are still read. Either way a record read back
 * has its checksum in `crc`. Records also carry the writer's holder `epoch` (fencing), covered
 * by the checksum like every other field.
 */
export type StoredRecord = MessageRecord & { epoch: number };

const NEWLINE = 0x0a;

export function checksumOf(record: Omit<StoredRecord, 'crc'> | Record<string, unknown>): string {
  const { crc: _ignored, ...rest } = record as Record<string, unknown>;
  return crc32Hex(canonicalJson(rest));
}

/**
 * The record and its line, serialised once. `unsealed` is a fresh object the caller hands over
 * (it becomes the record: no copy per message); checksum keys an input may carry are dropped, the
 * line's own is the only one. JSON.stringify escapes lone surrogates (\udxxx) and leaves
 * U+2028/U+2029 raw; neither is 0x0a, so a record is always exactly one line.
 */
export function encodeNewRecord(unsealed: Omit<StoredRecord, 'crc'>): { record: StoredRecord; line: Buffer } {
  const { record, json } = newRecordJson(unsealed);
  const { line, crc } = sealLine(json);
  record.crc = crc;
  return { record, line };
}

/**
 * encodeNewRecord's first half, for a writer that seals the JSON itself (sealLine or
 * sealLineInto) and then sets `record.crc` to the checksum: the record and its JSON without one.
 */
export function newRecordJson(unsealed: Omit<StoredRecord, 'crc'>): { record: StoredRecord; json: string } {
  const record = unsealed as Record<string, unknown>;
  if ('crc' in record) delete record.crc;
  if (LINE_CRC_KEY in record) delete record[LINE_CRC_KEY];
  return { record: record as StoredRecord, json: JSON.stringify(record) };
}

/** A complete line (without its '\n') → the record, or undefined when it is damaged in any way. */
export function decodeLine(line: Buffer): StoredRecord | undefined {
  if (line.length === 0 || line[0] !== 0x7b /* { */) return undefined;
  // A line with the byte-CRC suffix is checked before it is parsed; one without, after.
  const byteCrc = checkLineCrc(line);
  let value: unknown;
  try {
    value = JSON.parse(line.toString('utf8'));
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const r = value as Record<string, unknown>;
  if (byteCrc !== undefined) {
    // The suffix closes the top-level object, so the parse saw it as the last key.
    if (r[LINE_CRC_KEY] !== byteCrc) return undefined;
    delete r[LINE_CRC_KEY];
    r.crc = byteCrc;
  }
  if (typeof r.crc !== 'string' || typeof r.id !== 'string' || r.id.length === 0) return undefined;
  if (typeof r.seq !== 'number' || !Number.isInteger(r.seq) || r.seq < 0) return undefined;
  if (typeof r.role !== 'string' || typeof r.content !== 'string' || typeof r.createdAt !== 'string') return undefined;
  if (r.epoch !== undefined && (typeof r.epoch !== 'number' || !Number.isInteger(r.epoch))) return undefined;
  if (byteCrc === undefined && checksumOf(r) !== r.crc) return undefined;
  if (r.epoch === undefined) r.epoch = 0;
  return r as StoredRecord;
}

export interface ScannedLine<T> {
  record: T;
  /** Byte offsets of the line in the file; `end` is just past its '\n'. */
  start: number;
  end: number;
}
export type ScannedRecord = ScannedLine<StoredRecord>;

export interface ByteRange {
  start: number;
  end: number;
}

export interface LineScan<T> {
  records: ScannedLine<T>[];
  /** Damaged bytes followed by at least one valid record: never cut, quarantined to a side file. */
  midDamage: ByteRange[];
  /** Damaged or incomplete bytes with nothing valid after them: safe to truncate. */
  tail: ByteRange | undefined;
}
export type ScanResult = LineScan<StoredRecord>;

/**
 * Splits `buf` (a log's bytes from offset `base`) into the lines `decode` accepts and the damaged
 * ranges between them. Every JSON-lines log of the store (messages, approvals) is scanned here.
 */
export function scanLines<T>(buf: Buffer, base: number, decode: (line: Buffer) => T | undefined): LineScan<T> {
  const records: ScannedLine<T>[] = [];
  const midDamage: ByteRange[] = [];
  let damageStart: number | undefined;
  let pos = 0;
  while (pos < buf.length) {
    const nl = buf.indexOf(NEWLINE, pos);
    if (nl === -1) break;
    const record = decode(buf.subarray(pos, nl));
    if (record !== undefined) {
      if (damageStart !== undefined) {
        midDamage.push({ start: base + damageStart, end: base + pos });
        damageStart = undefined;
      }
      records.push({ record, start: base + pos, end: base + nl + 1 });
    } else if (damageStart === undefined) {
      damageStart = pos;
    }
    pos = nl + 1;
  }
  if (pos < buf.length && damageStart === undefined) damageStart = pos;
  const tail = damageStart === undefined ? undefined : { start: base + damageStart, end: base + buf.length };
  return { records, midDamage, tail };
}

/**
 * How a session's records become lines and back: plaintext here, or sealed per record when the
 * store is encrypted at rest (at-rest/at-rest-cipher.ts). Either way one record is one line.
 */
export interface RecordCodec {
  /** A record's plaintext line (with its '\n') → the line as it goes to disk (with its '\n'). */
  sealLine(seq: number, plain: Buffer): Buffer;
  /**
   * sealLine's bytes for a plaintext line given without its '\n', written into `into` at `at` (a
   * writer's chunk: no Buffer a line): their length, '\n' included; undefined, with nothing sealed
   * and nothing written that counts, when they might not fit.
   */
  sealLineInto(seq: number, plain: Uint8Array, into: Buffer, at: number): number | undefined;
  /** A line from disk (without '\n') → its plaintext line (without '\n'), or undefined when it fails authentication. */
  openLine(line: Buffer): Buffer | undefined;
  /** A line from disk (without '\n') → the record, or undefined when it is damaged in any way. */
  decode(line: Buffer): StoredRecord | undefined;
}
export const plainRecordCodec: RecordCodec = {
  sealLine: (_seq, plain) => plain,
  sealLineInto: (_seq, plain, into, at) => {
    if (at + plain.length + 1 > into.length) return undefined;
    into.set(plain, at);
    into[at + plain.length] = NEWLINE;
    return plain.length + 1;
  },
  openLine: (line) => line,
  decode: decodeLine,
};

/** Splits `buf` (the file's bytes from offset `base`) into valid records and damaged ranges. */
export function scanLog(buf: Buffer, base: number, codec: RecordCodec = plainRecordCodec): ScanResult {
  return scanLines(buf, base, codec.decode);
}

/**
 * A line of a store log that is not a message: the value's JSON with a `crc` field over its
 * canonical JSON, like message records. Lines written before checksums (no `crc`) are accepted.
 */
export function encodeSealedLine(value: Record<string, unknown>): Buffer {
  const { crc: _ignored, ...rest } = value;
  return Buffer.from(`${JSON.stringify({ ...rest, crc: checksumOf(rest) })}\n`, 'utf8');
}

/** The value of a sealed line without its `crc`, or undefined when the line is damaged. */
export function decodeSealedLine(line: Buffer): Record<string, unknown> | undefined {
  if (line.length === 0 || line[0] !== 0x7b /* { */) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line.toString('utf8'));
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { crc, ...rest } = value as Record<string, unknown>;
  if (crc !== undefined && (typeof crc !== 'string' || checksumOf(rest) !== crc)) return undefined;
  return rest;
}

/**
 * Applies the log's ordering rules to scanned records: the first record with an id wins (a retry of
 * an unacknowledged append can leave a second copy), and seq must increase; a record whose seq does
 * not is a leftover of a writer that lost the baton and is skipped.
 */
export function acceptRecords(scanned: ScannedRecord[], seenIds: Set<string>, lastSeq: number): { accepted: ScannedRecord[]; lastSeq: number } {
  const accepted: ScannedRecord[] = [];
  let last = lastSeq;
  for (const s of scanned) {
    if (seenIds.has(s.record.id) || s.record.seq <= last) continue;
    seenIds.add(s.record.id);
    last = s.record.seq;
    accepted.push(s);
  }
  return { accepted, lastSeq: last };
}
