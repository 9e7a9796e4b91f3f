import { crc32 } from 'node:zlib';

/**
 * The checksum of a messages.jsonl line written since issue 20: a CRC-32 over the line's own bytes,
 * as written, in a last key `"bcrc"`. The writer serialises each record once and the reader checks
 * the bytes before its one JSON.parse, so neither side builds a canonical (key-sorted) copy of the
 * record. Layout, for a record serialised as `{…}`:
 *
 *   {…,"bcrc":"xxxxxxxx"}\n      crc32 of every byte before `"bcrc"` (the comma included)
 *
 * Lines of the earlier format (a `crc` over canonical JSON) carry no such suffix and are checked
 * the old way by record-codec.ts.
 */
export const LINE_CRC_KEY = 'bcrc';

const SUFFIX_HEAD = Buffer.from(`"${LINE_CRC_KEY}":"`, 'latin1');
/** `"bcrc":"` + 8 hex digits + `"}`. */
const SUFFIX_LENGTH = SUFFIX_HEAD.length + 8 + 2;

/** One line (with its '\n') for the JSON of a record without a checksum: `json` must be an object with at least one key. */
export function sealLine(json: string): { line: Buffer; crc: string } {
  const line = Buffer.from(`${json.slice(0, -1)},"${LINE_CRC_KEY}":"00000000"}\n`, 'utf8');
  const bodyEnd = line.length - 1 - SUFFIX_LENGTH;
  const crc = crc32(line.subarray(0, bodyEnd)).toString(16).padStart(8, '0');
  line.write(crc, bodyEnd + SUFFIX_HEAD.length, 'latin1');
  return { line, crc };
}

/** Room sealLineInto asks for besides the JSON's UTF-8: the ',' and suffix it adds, and the '\n'. */
const SEAL_EXTRA_BYTES = 1 + SUFFIX_LENGTH + 1;
const COMMA = 0x2c;
const LINE_END = Buffer.from('"}\n', 'latin1');

/**
 * sealLine's bytes written straight into `into` at `at` (the landing's write chunk), so a line
 * costs no Buffer of its own and no copy (issue 20: every landed record goes through here).
 * Returns the line's length (with its '\n') and its checksum, as text and as the number the
 * read-back compares; undefined, with nothing written that counts, when the line might not fit
 * in `into` from `at` (UTF-8 takes at most 3 bytes a UTF-16 unit: room for that is room enough).
 */
export function sealLineInto(json: string, into: Buffer, at: number): { length: number; crc: string; check: number } | undefined {
  if (at + json.length * 3 + SEAL_EXTRA_BYTES > into.length) return undefined;
  // The JSON's closing '}' becomes the ',' before the suffix; the checksum covers up to it.
  const comma = at + into.write(json, at, 'utf8') - 1;
  into[comma] = COMMA;
  const check = crc32(into.subarray(at, comma + 1));
  const crc = check.toString(16).padStart(8, '0');
  let end = comma + 1 + SUFFIX_HEAD.copy(into, comma + 1);
  end += into.write(crc, end, 'latin1');
  end += LINE_END.copy(into, end);
  return { length: end - at, crc, check };
}

/**
 * For a line (without its '\n'): the checksum when the line ends with the byte-CRC suffix and its
 * bytes match it; undefined otherwise, and the caller checks it as an earlier-format line (whose
 * `crc` over canonical JSON a damaged new line cannot have).
 */
export function checkLineCrc(line: Buffer): string | undefined {
  return lineCrcMatches(line) ? line.toString('latin1', line.length - 10, line.length - 2) : undefined;
}

/**
 * checkLineCrc without building the checksum's string: true when the line has the byte-CRC suffix
 * and its bytes match it. Once per record on every whole-log read, so the suffix is compared and
 * its hex read byte by byte (a Buffer.compare, a string and a regexp per line cost more than the CRC).
 */
export function lineCrcMatches(line: Buffer): boolean {
  const head = line.length - SUFFIX_LENGTH;
  if (head < 2 || line[line.length - 1] !== 0x7d /* } */ || line[line.length - 2] !== 0x22 /* " */) return false;
  for (let i = 0; i < SUFFIX_HEAD.length; i++) if (line[head + i] !== SUFFIX_HEAD[i]) return false;
  const want = hex8At(line, head + SUFFIX_HEAD.length);
  return want !== -1 && crc32(line.subarray(0, head)) === want;
}

/** The 8 lower-case hex digits at `at` as a number (a checksum as the store writes it), or -1. */
export function hex8At(bytes: Uint8Array, at: number): number {
  let value = 0;
  for (let i = at; i < at + 8; i++) {
    const c = bytes[i];
    const digit = c === undefined ? -1 : c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (digit === -1) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/**
 * The JSON of the record a line holds, as `decodeLine` returns it (checksum under `crc`, last),
 * spliced from the line's bytes instead of serialised again. Only for a line decodeLine already
 * accepted with checksum `crc` (so the bytes are not checked twice); undefined for a line without
 * the byte-CRC suffix.
 */
export function recordJsonOfLine(line: Buffer, crc: string): Buffer | undefined {
  const head = line.length - SUFFIX_LENGTH;
  if (head < 2 || SUFFIX_HEAD.compare(line, head, head + SUFFIX_HEAD.length) !== 0) return undefined;
  if (line.toString('latin1', head + SUFFIX_HEAD.length, line.length - 2) !== crc) return undefined;
  return Buffer.concat([line.subarray(0, head), Buffer.from(`"crc":"${crc}"}`, 'latin1')]);
}

const RECORD_CRC_HEAD = Buffer.from('"crc":"', 'latin1');

/**
 * recordJsonOfLine in place, for a line whose byte-CRC was just checked (lineCrcMatches): the
 * record's JSON of the line at [start, start + length) of `buf` (no '\n') is written at `to`
 * (≤ start + 1: room for a separator before it) and the index after it returned. It is one byte shorter than the line, so a reader can
 * turn a chunk of lines into the records' JSON within the chunk, with no buffer per record.
 */
export function spliceRecordJsonWithin(buf: Buffer, start: number, length: number, to: number): number {
  const head = length - SUFFIX_LENGTH;
  buf.copyWithin(to, start, start + head);
  let at = to + head;
  RECORD_CRC_HEAD.copy(buf, at);
  at += RECORD_CRC_HEAD.length;
  // The 8 hex digits and `"}`, as stored.
  buf.copyWithin(at, start + head + SUFFIX_HEAD.length, start + length);
  return at + SUFFIX_LENGTH - SUFFIX_HEAD.length;
}
