import { acceptRecords, plainRecordCodec, scanLog, type ByteRange, type RecordCodec, type StoredRecord } from './record-codec.js';

/**
 * Pages of messages.jsonl by seq, read by byte offset: records are appended in increasing seq, so
 * the offset of a seq is found by bisecting the file (about log2(size / window) reads of one
 * window each), and a page reads only its own bytes forward or backward from there. A 100,000-
 * message log answers any page without reading the rest of it. Every later reader (the UI's
 * pages, search hits, previews) goes through readRecords → here.
 */

/** Bytes read per step (bisection probe, forward or backward window); doubled for longer lines. */
export const PAGE_WINDOW_BYTES = 64 * 1024;
/** A forward page of `count` records starts with a window of count × this (at least the minimum); longer records take more reads. */
export const BYTES_PER_RECORD_GUESS = 512;
export const SHORT_WINDOW_MIN_BYTES = 8 * 1024;

export interface ReadableFile {
  read(length: number, position: number): Promise<Buffer>;
}

export interface PageResult {
  records: StoredRecord[];
  midDamage: ByteRange[];
}

/**
 * Byte offset of the first line whose record has seq >= `seq` (the file size when none has). A
 * probe that lands in damage scans forward to the next valid record. A stale record (a writer that
 * lost the baton, seq out of order) can shift the answer by one window; the callers' accept step
 * drops such records, and the window keeps the page correct.
 */
export async function offsetOfSeq(file: ReadableFile, size: number, seq: number, codec: RecordCodec = plainRecordCodec): Promise<number> {
  let lo = 0;
  let hi = size;
  while (hi - lo > PAGE_WINDOW_BYTES) {
    const mid = lo + Math.floor((hi - lo) / 2);
    const probe = await firstRecordFrom(file, mid, hi, codec);
    if (probe === undefined) {
      hi = mid;
      continue;
    }
    if (probe.record.seq < seq) lo = probe.end;
    else hi = probe.start;
  }
  // lo is a line start and the answer is within about a window of it: scan forward from lo (hi
  // may sit inside a long line, so the scan is not cut there).
  let pos = lo;
  let window = PAGE_WINDOW_BYTES;
  while (pos < size) {
    const buf = await file.read(Math.min(window, size - pos), pos);
    const cut = buf.lastIndexOf(0x0a) + 1;
    if (cut === 0) {
      if (pos + buf.length >= size) return size;
      window *= 2;
      continue;
    }
    const found = scanLog(buf.subarray(0, cut), pos, codec).records.find((r) => r.record.seq >= seq);
    if (found !== undefined) return found.start;
    pos += cut;
  }
  return size;
}

/** The first whole valid record starting at or after `from` (a line start is found first) and before `limit`. */
async function firstRecordFrom(file: ReadableFile, from: number, limit: number, codec: RecordCodec): Promise<{ record: StoredRecord; start: number; end: number } | undefined> {
  let window = PAGE_WINDOW_BYTES;
  for (;;) {
    const length = Math.min(window, limit - from);
    if (length <= 0) return undefined;
    const buf = await file.read(length, from);
    // `from` is inside a line unless the byte before it is a newline: skip to the next line start.
    const startsLine = from === 0 || (await file.read(1, from - 1))[0] === 0x0a;
    let pos = startsLine ? 0 : buf.indexOf(0x0a) + 1;
    if (!startsLine && pos === 0) {
      if (from + length >= limit) return undefined;
      window *= 2;
      continue;
    }
    while (pos < buf.length) {
      const nl = buf.indexOf(0x0a, pos);
      if (nl === -1) break;
      const record = codec.decode(buf.subarray(pos, nl));
      if (record !== undefined) return { record, start: from + pos, end: from + nl + 1 };
      pos = nl + 1;
    }
    if (from + length >= limit) return undefined;
    // No complete valid line in this window (a long line or damage): a larger one.
    window *= 2;
  }
}

/** Up to `count` records from byte offset `start` (a line start) forward; all of them to the end when count is undefined. */
export async function readForward(file: ReadableFile, size: number, start: number, count: number | undefined, codec: RecordCodec = plainRecordCodec): Promise<PageResult> {
  const records: StoredRecord[] = [];
  const midDamage: ByteRange[] = [];
  const seen = new Set<string>();
  let lastSeq = -1;
  let pos = start;
  // A short page (a search hit's 25 messages) reads a short window: every record in a window is decoded.
  let window = count === undefined ? PAGE_WINDOW_BYTES * 4 : Math.min(PAGE_WINDOW_BYTES * 4, Math.max(SHORT_WINDOW_MIN_BYTES, count * BYTES_PER_RECORD_GUESS));
  while (pos < size && (count === undefined || records.length < count)) {
    const buf = await file.read(Math.min(window, size - pos), pos);
    const cut = buf.lastIndexOf(0x0a) + 1;
    if (cut === 0) {
      if (pos + buf.length >= size) break; // a torn last line: not a record yet
      window *= 2;
      continue;
    }
    const scan = scanLog(buf.subarray(0, cut), pos, codec);
    const accepted = acceptRecords(scan.records, seen, lastSeq);
    lastSeq = accepted.lastSeq;
    for (const s of accepted.accepted) records.push(s.record);
    midDamage.push(...scan.midDamage);
    pos += cut;
  }
  return { records: count === undefined ? records : records.slice(0, count), midDamage };
}

/** The last `count` records that end at or before byte offset `end` (a line start or the file size). */
export async function readBackward(file: ReadableFile, end: number, count: number, codec: RecordCodec = plainRecordCodec): Promise<PageResult> {
  if (count <= 0 || end === 0) return { records: [], midDamage: [] };
  let window = PAGE_WINDOW_BYTES;
  for (;;) {
    const start = Math.max(0, end - window);
    const buf = await file.read(end - start, start);
    // Skip the partial first line unless the window starts at the beginning of the file.
    const first = start === 0 ? 0 : buf.indexOf(0x0a) + 1;
    const scan = scanLog(buf.subarray(first), start + first, codec);
    const records = acceptRecords(scan.records, new Set(), -1).accepted.map((s) => s.record);
    // A range that starts the window may begin before it: left for a read that sees all of it.
    const midDamage = start === 0 ? scan.midDamage : scan.midDamage.filter((r) => r.start > start + first);
    if (records.length >= count || start === 0) return { records: records.slice(-count), midDamage };
    window *= 2;
  }
}
