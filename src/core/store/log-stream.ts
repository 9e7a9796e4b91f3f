import { createHash } from 'node:crypto';
import type { ReadableFile } from './paged-read.js';

/**
 * One streaming pass over a log's bytes: read in chunks of LOG_STREAM_CHUNK_BYTES, hashed
 * (sha256) as they are read, and split into lines for a callback that decides how much of each
 * line it needs (often only its checksum, never a parse). Memory is one chunk plus one line,
 * whatever the log's size: every whole-log path (landing read-back, the receiver's check,
 * `show --all`) goes through here rather than reading the file into one buffer.
 */
export const LOG_STREAM_CHUNK_BYTES = 1024 * 1024;

/**
 * A line as stored → the record line it holds (without '\n'), or undefined when it cannot be
 * opened. Plaintext logs hold records as they are; a store encrypted at rest (issue 17) plugs its
 * per-record opener in here (session-store.ts streamFile, which then hashes the opened lines).
 */
export type LineOpener = (line: Buffer) => Buffer | undefined;
export const plainLines: LineOpener = (line) => line;

export interface LogBytes {
  /** Bytes hashed: the whole range asked for, complete lines or not. */
  bytes: number;
  sha256: string;
  /**
   * A log encrypted at rest, read whole: the file's bytes as stored (ciphertext) and their sha256,
   * hashed in the same pass. A receiver reading the same store checks these without decrypting.
   */
  stored?: { bytes: number; sha256: string };
}

/**
 * Streams bytes [0, end) of `file`. `onLine` sees each complete line without its '\n' (the buffer
 * is only valid during the call) and its start offset; a last line with no '\n' is not passed.
 * An `onLine` that returns a promise is awaited before the next line (e.g. writing to a pipe).
 */
export async function streamLog(
  file: ReadableFile,
  end: number,
  onLine: (line: Buffer, start: number) => void | Promise<void>,
  chunkBytes = LOG_STREAM_CHUNK_BYTES,
): Promise<LogBytes> {
  const hash = createHash('sha256');
  // The start of a line that continues past the chunk it began in (kept as parts: a long line is joined once).
  let carry: Buffer[] = [];
  let carryStart = 0;
  let pos = 0;
  while (pos < end) {
    const chunk = await file.read(Math.min(chunkBytes, end - pos), pos);
    if (chunk.length === 0) break; // the file shrank under us: report what was hashed
    hash.update(chunk);
    let at = 0;
    let nl = chunk.indexOf(0x0a);
    if (carry.length > 0 && nl !== -1) {
      const pending = onLine(Buffer.concat([...carry, chunk.subarray(0, nl)]), carryStart);
      if (pending) await pending;
      carry = [];
      at = nl + 1;
      nl = chunk.indexOf(0x0a, at);
    }
    for (; nl !== -1; nl = chunk.indexOf(0x0a, at)) {
      const pending = onLine(chunk.subarray(at, nl), pos + at);
      if (pending) await pending;
      at = nl + 1;
    }
    if (at < chunk.length) {
      if (carry.length === 0) carryStart = pos + at;
      carry.push(chunk.subarray(at));
    }
    pos += chunk.length;
  }
  return { bytes: pos, sha256: hash.digest('hex') };
}
