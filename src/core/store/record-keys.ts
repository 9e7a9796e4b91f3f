import { lineCrcMatches } from './line-crc.js';
import { LineIdSet } from './line-id-set.js';
import { decodeLine, type StoredRecord } from './record-codec.js';

/**
 * What a whole-log pass needs of a record to apply the log's rules (first id wins, seq increases):
 * its id and seq. `record` is there when the line had to be parsed (an earlier-format line, or one
 * whose shape the walk below does not vouch for); without it, the line passed its byte-CRC.
 * `idHash` (LineIdSet.hashOf of the id), when present, was taken from the line's bytes: the id's
 * string is then made only if asked for, from the line, so like the line it is valid only during
 * the call that hands the keys over (stream-records.ts asks only on a hash match, before the record
 * is passed on). 100,000 id strings were a twentieth of `show --all`'s CPU and of its garbage.
 */
export interface RecordKeys {
  readonly id: string;
  seq: number;
  idHash?: number;
  record?: StoredRecord;
}

/** Keys found by the walk from the end: the id read from the line when first asked for. */
class WalkedKeys implements RecordKeys {
  private text: string | undefined;

  constructor(
    private readonly line: Buffer,
    private readonly idStart: number,
    private readonly idEnd: number,
    readonly seq: number,
    readonly idHash: number,
  ) {}

  get id(): string {
    return (this.text ??= this.line.toString('utf8', this.idStart, this.idEnd));
  }
}

/** A seq with more digits is not read by the walk (still exact as a double below 2^53): the line is parsed instead. */
const SEQ_MAX_DIGITS = 15;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/**
 * A line's record keys without building the record: for a line whose bytes match its byte-CRC
 * (line-crc.ts), the bytes are the ones the writer serialised with JSON.stringify, so its top-level
 * keys can be walked (strings skipped with a native byte search) to find `id` and `seq`. Anything
 * the walk does not expect — an earlier-format line, a damaged one, escapes in a key or in the id,
 * a seq that is not plain digits, a key seen twice — goes to the one full parse (decodeLine), which
 * decides as it always did. Issue 20: `show --all --json` prints the stored bytes, so this walk is
 * all the per-record work besides the CRC.
 */
export function decodeRecordKeys(line: Buffer): RecordKeys | undefined {
  if (lineCrcMatches(line)) {
    if (walkFromEnd(line)) {
      const hash = LineIdSet.hashOfAscii(line, found.idStart, found.idEnd);
      return hash === -1 ? { id: line.toString('utf8', found.idStart, found.idEnd), seq: found.seq } : new WalkedKeys(line, found.idStart, found.idEnd, found.seq, hash);
    }
    const keys = walkIdSeq(line);
    if (keys !== undefined) return keys;
  }
  const record = decodeLine(line);
  return record === undefined ? undefined : { id: record.id, seq: record.seq, record };
}

/** The top-level `id` (a string without escapes) and `seq` (plain digits) of a compact JSON object, or undefined. */
export function walkIdSeq(line: Buffer): { id: string; seq: number } | undefined {
  const end = line.length - 1;
  if (end < 1 || line[0] !== OPEN_OBJECT || line[end] !== CLOSE_OBJECT) return undefined;
  let id: string | undefined;
  let seq = -1;
  let at = 1;
  for (;;) {
    // A key: a string without escapes (JSON.stringify writes none in a plain key).
    if (line[at] !== QUOTE) return undefined;
    const keyStart = at + 1;
    const keyEnd = line.indexOf(QUOTE, keyStart);
    if (keyEnd === -1 || line[keyEnd + 1] !== COLON) return undefined;
    for (let k = keyStart; k < keyEnd; k++) if (line[k] === BACKSLASH) return undefined;
    at = keyEnd + 2;
    const keyLength = keyEnd - keyStart;
    if (keyLength === 2 && line[keyStart] === 0x69 /* i */ && line[keyStart + 1] === 0x64 /* d */) {
      if (id !== undefined || line[at] !== QUOTE) return undefined;
      const close = stringEnd(line, at);
      if (close === -1 || close === at + 1) return undefined;
      for (let k = at + 1; k < close; k++) if (line[k] === BACKSLASH) return undefined;
      id = line.toString('utf8', at + 1, close);
      at = close + 1;
    } else if (keyLength === 3 && line[keyStart] === 0x73 /* s */ && line[keyStart + 1] === 0x65 /* e */ && line[keyStart + 2] === 0x71 /* q */) {
      if (seq !== -1) return undefined;
      let value = 0;
      const first = at;
      for (let c = line[at]!; c >= 0x30 && c <= 0x39; c = line[++at]!) value = value * 10 + (c - 0x30);
      const digits = at - first;
      if (digits === 0 || digits > SEQ_MAX_DIGITS || (digits > 1 && line[first] === 0x30)) return undefined;
      seq = value;
    } else {
      at = valueEnd(line, at, end);
      if (at === -1) return undefined;
    }
    if (at === end) break;
    if (line[at] !== COMMA) return undefined;
    at++;
  }
  return id === undefined || seq === -1 ? undefined : { id, seq };
}

/**
 * walkIdSeq from the object's closing brace backwards: the writer puts id, seq, createdAt and
 * epoch last (`{...input, id, seq, …}`), so a line's keys are usually found without skipping its
 * content. A quote is a string's delimiter exactly when an even number of backslashes precedes it
 * (inside a string every quote is escaped), so strings can be walked backwards as well. The last
 * `id` and `seq` win, as in JSON.parse. Undefined at a nested value (an object or array) before
 * both are found, or at anything unexpected: walkIdSeq or the parse decide then.
 */
export function walkIdSeqFromEnd(line: Buffer): { id: string; seq: number } | undefined {
  return walkFromEnd(line) ? { id: line.toString('utf8', found.idStart, found.idEnd), seq: found.seq } : undefined;
}

/** What walkFromEnd found: the id's bytes [idStart, idEnd) and the seq (one scratch record: no object per line). */
const found = { idStart: 0, idEnd: 0, seq: -1 };

/** walkIdSeqFromEnd without building its answer: true with `found` set, or false. */
function walkFromEnd(line: Buffer): boolean {
  let at = line.length - 1;
  if (at < 1 || line[0] !== OPEN_OBJECT || line[at] !== CLOSE_OBJECT) return false;
  let idStart = -1;
  let idEnd = -1;
  let seq = -1;
  at--;
  for (;;) {
    // The value ends at `at`: a string, or a number / true / false / null.
    let valueStart: number;
    const last = line[at];
    if (last === QUOTE) {
      valueStart = stringStart(line, at);
      if (valueStart === -1) return false;
    } else {
      if (last === CLOSE_OBJECT || last === CLOSE_ARRAY || last === COLON) return false;
      valueStart = at;
      while (valueStart > 0 && line[valueStart - 1] !== COLON) {
        const c = line[valueStart - 1]!;
        if (c === QUOTE || c === CLOSE_OBJECT || c === CLOSE_ARRAY || c === COMMA) return false;
        valueStart--;
      }
    }
    if (line[valueStart - 1] !== COLON || line[valueStart - 2] !== QUOTE) return false;
    const keyEnd = valueStart - 2;
    const keyStart = stringStart(line, keyEnd);
    if (keyStart === -1) return false;
    const keyLength = keyEnd - keyStart - 1;
    // An escape could spell `id` another way (JSON.parse would read it as id): not this walk's to decide.
    for (let k = keyStart + 1; k < keyEnd; k++) if (line[k] === BACKSLASH) return false;
    if (keyLength === 2 && line[keyStart + 1] === 0x69 /* i */ && line[keyStart + 2] === 0x64 /* d */ && idStart === -1) {
      if (line[valueStart] !== QUOTE || at === valueStart + 1) return false;
      for (let k = valueStart + 1; k < at; k++) if (line[k] === BACKSLASH) return false;
      idStart = valueStart + 1;
      idEnd = at;
    } else if (keyLength === 3 && line[keyStart + 1] === 0x73 /* s */ && line[keyStart + 2] === 0x65 /* e */ && line[keyStart + 3] === 0x71 /* q */ && seq === -1) {
      const digits = at + 1 - valueStart;
      if (digits > SEQ_MAX_DIGITS || (digits > 1 && line[valueStart] === 0x30)) return false;
      let value = 0;
      for (let k = valueStart; k <= at; k++) {
        const c = line[k]!;
        if (c < 0x30 || c > 0x39) return false;
        value = value * 10 + (c - 0x30);
      }
      seq = value;
    }
    if (idStart !== -1 && seq !== -1) {
      found.idStart = idStart;
      found.idEnd = idEnd;
      found.seq = seq;
      return true;
    }
    // Before the key: a comma and the previous member, or the opening brace (no more members).
    if (line[keyStart - 1] !== COMMA) return false;
    at = keyStart - 2;
  }
}

/**
 * Bytes scanned in JS before the native lastIndexOf takes over: the keys and values the walk from
 * the end meets (id, seq, createdAt, epoch, bcrc) are short, and a native call per string cost
 * more than the bytes it skipped (a twentieth of `show --all`'s CPU).
 */
const SHORT_SCAN = 48;

/** The last quote in line[0, before], or -1 (a JS loop over the first SHORT_SCAN bytes, native beyond). */
function lastQuote(line: Buffer, before: number): number {
  const stop = Math.max(0, before - SHORT_SCAN);
  for (let i = before; i >= stop; i--) if (line[i] === QUOTE) return i;
  return stop === 0 ? -1 : line.lastIndexOf(QUOTE, stop - 1);
}

/** Index of the quote opening the string whose closing quote is at `close`, or -1. */
function stringStart(line: Buffer, close: number): number {
  for (let q = lastQuote(line, close - 1); q !== -1; q = lastQuote(line, q - 1)) {
    let slashes = 0;
    for (let k = q - 1; line[k] === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return q;
  }
  return -1;
}

/** Index of the quote closing the string that opens at `open`, or -1. */
function stringEnd(line: Buffer, open: number): number {
  let q = line.indexOf(QUOTE, open + 1);
  while (q !== -1) {
    let slashes = 0;
    for (let k = q - 1; line[k] === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return q;
    q = line.indexOf(QUOTE, q + 1);
  }
  return -1;
}

/** Index just past the value starting at `at` (before `limit`), or -1 when it is not one the walk knows. */
function valueEnd(line: Buffer, at: number, limit: number): number {
  const c = line[at];
  if (c === QUOTE) {
    const close = stringEnd(line, at);
    return close === -1 ? -1 : close + 1;
  }
  if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
    // A nested value: only its brackets and strings matter to find where it ends.
    let depth = 0;
    for (let i = at; i < limit; i++) {
      const b = line[i];
      if (b === QUOTE) {
        i = stringEnd(line, i);
        if (i === -1) return -1;
      } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) depth++;
      else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
        if (--depth === 0) return i + 1;
      }
    }
    return -1;
  }
  // A number, true, false or null: runs to the next comma or the closing brace.
  let i = at;
  while (i < limit && line[i] !== COMMA) i++;
  return i === at ? -1 : i;
}
