import { isAscii } from 'node:buffer';
import { sha256Hex } from '../hash.js';
import { LINE_MAX_BYTES, READ_CHUNK_BYTES } from './limits.js';
import type { ImportHandle } from './reader.js';

const NL = 0x0a;

/** One line of a JSONL log with its byte range; `value` is the parsed JSON or undefined. */
export interface LogLine {
  start: number;
  /** Offset after the line's newline (or after its last byte when unterminated). */
  end: number;
  terminated: boolean;
  text: string;
  value: unknown;
  /** True when the line is not valid JSON (a torn write or damage). */
  broken: boolean;
}

export function parseLine(text: string, start: number, end: number, terminated: boolean): LogLine {
  let value: unknown;
  let broken = false;
  try {
    value = JSON.parse(text);
  } catch {
    broken = true;
  }
  return { start, end, terminated, text, value, broken };
}

/** Short hash of a line's text: part of the fingerprint (the same last line hashes the same). */
export function lineKey(text: string): string {
  return sha256Hex(text).slice(0, 32);
}

/**
 * Splits a buffer read at `base` into lines. `cutStart`: the buffer may begin mid-line, so
 * everything up to the first newline is dropped. `atEof`: the buffer ends at end of file, so a
 * final unterminated piece is a line (maybe torn); otherwise it is cut and left out.
 * Returns the lines and where the first dropped byte at the end begins.
 */
export function splitLines(buf: Buffer, base: number, cutStart: boolean, atEof: boolean): { lines: LogLine[]; restAt: number } {
  // An ASCII buffer (most logs) is decoded once and cut as a string: its byte offsets are its
  // character offsets. A decode per line cost more than the parse of a short line (a cold scan
  // splits ~700k lines). Any other buffer is decoded line by line, as UTF-8.
  const ascii = isAscii(buf) ? buf.toString('latin1') : null;
  const next = ascii !== null ? (from: number) => ascii.indexOf('\n', from) : (from: number) => buf.indexOf(NL, from);
  const textOf = ascii !== null ? (from: number, to: number) => ascii.slice(from, to).trimEnd() : (from: number, to: number) => buf.toString('utf8', from, to).trimEnd();
  const lines: LogLine[] = [];
  let pos = 0;
  if (cutStart) {
    const nl = next(0);
    if (nl < 0) return { lines, restAt: base + buf.length };
    pos = nl + 1;
  }
  while (pos < buf.length) {
    const nl = next(pos);
    if (nl < 0) {
      if (!atEof) return { lines, restAt: base + pos };
      const text = textOf(pos, buf.length);
      if (text.length > 0) lines.push(parseLine(text, base + pos, base + buf.length, false));
      return { lines, restAt: base + buf.length };
    }
    const text = textOf(pos, nl);
    if (text.length > 0) lines.push(parseLine(text, base + pos, base + nl + 1, true));
    pos = nl + 1;
  }
  return { lines, restAt: base + buf.length };
}

/**
 * Streams the lines of [start, end) in READ_CHUNK_BYTES chunks; `start` must be a line start.
 * Memory stays bounded by the chunk size plus the longest line; a line over LINE_MAX_BYTES is
 * reported as one broken line without being held whole.
 */
export async function forEachLine(handle: ImportHandle, start: number, end: number, onLine: (line: LogLine) => void): Promise<void> {
  for await (const _ of lineChunks(handle, start, end, onLine));
}

/**
 * forEachLine that pauses after each chunk's lines were handed to `onLine` (a consumer that
 * yields between chunks, as the import's stream does). Each line is parsed and handed over at
 * once, so a chunk's parsed lines are never held together. `parse(n)` (n: the line's number
 * among the lines handed over, from 1) false: the line is handed over unparsed (`value`
 * undefined, not broken), for a reader that already knows the line does not matter to it.
 */
export async function* lineChunks(handle: ImportHandle, start: number, end: number, onLine: (line: LogLine) => void, parse?: (n: number) => boolean): AsyncGenerator<void> {
  let handed = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let pendingStart = start;
  let oversized = false;
  let pos = start;
  while (pos < end) {
    const chunk = await handle.read(pos, Math.min(READ_CHUNK_BYTES, end - pos));
    if (chunk.length === 0) break;
    let from = 0;
    while (from < chunk.length) {
      const nl = chunk.indexOf(NL, from);
      if (nl < 0) {
        if (!oversized) {
          pending.push(chunk.subarray(from));
          pendingBytes += chunk.length - from;
          if (pendingBytes > LINE_MAX_BYTES) {
            oversized = true;
            pending = [];
          }
        }
        break;
      }
      const lineEnd = pos + nl + 1;
      if (oversized) {
        handed++;
        onLine({ start: pendingStart, end: lineEnd, terminated: true, text: '', value: undefined, broken: true });
      } else {
        // A line within the chunk is decoded in place: no Buffer object a line (an import reads millions).
        const text = (pending.length === 0 ? chunk.toString('utf8', from, nl) : Buffer.concat([...pending, chunk.subarray(from, nl)]).toString('utf8')).trimEnd();
        if (text.length > 0) {
          handed++;
          onLine(!parse || parse(handed) ? parseLine(text, pendingStart, lineEnd, true) : { start: pendingStart, end: lineEnd, terminated: true, text, value: undefined, broken: false });
        }
      }
      pending = [];
      pendingBytes = 0;
      oversized = false;
      pendingStart = lineEnd;
      from = nl + 1;
    }
    pos += chunk.length;
    yield;
  }
  if (oversized) onLine({ start: pendingStart, end: pos, terminated: false, text: '', value: undefined, broken: true });
  else if (pendingBytes > 0) {
    const text = Buffer.concat(pending).toString('utf8').trimEnd();
    if (text.length > 0) onLine(parseLine(text, pendingStart, pos, false));
  }
}
