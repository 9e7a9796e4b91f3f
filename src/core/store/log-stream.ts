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
  const bytes = await forEachLine(file, end, onLine, chunkBytes, (chunk) => void hash.update(chunk));
  return { bytes, sha256: hash.digest('hex') };
}

/**
 * streamLog without the hash, for passes that only need the lines (`show --all`: sha256 was a
 * tenth of its time). `onChunk` sees each chunk as read, before its lines. Resolves to the bytes read.
 */
export async function forEachLine(
  file: ReadableFile,
  end: number,
  onLine: (line: Buffer, start: number) => void | Promise<void>,
  chunkBytes = LOG_STREAM_CHUNK_BYTES,
  onChunk?: (chunk: Buffer) => void,
): Promise<number> {
  // The start of a line that continues past the chunk it began in (kept as parts: a long line is joined once).
  let carry: Buffer[] = [];
  let carryStart = 0;
  let pos = 0;
  // The next chunk is read while this one's lines are handled (the read runs on libuv's pool):
  // a whole-log pass waited on the disk a tenth of its time. Memory: two chunks.
  let next = pos < end ? file.read(Math.min(chunkBytes, end), 0) : undefined;
  try {
    while (next !== undefined) {
      const chunk = await next;
      if (chunk.length === 0) break; // the file shrank under us: report what was read
      const after = pos + chunk.length;
      next = after < end ? file.read(Math.min(chunkBytes, end - after), after) : undefined;
      onChunk?.(chunk);
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
      pos = after;
    }
  } finally {
    // Left unread when a callback threw: its failure is not this pass's to report.
    next?.catch(() => undefined);
  }
  return pos;
}
