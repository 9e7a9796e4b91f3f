import { crc32 } from 'node:zlib';
import type { DurableFs } from '../fs/durable-fs.js';
import { StoreError, fromFsError } from './errors.js';
import { hex8At, lineCrcMatches } from './line-crc.js';
import { streamLog, type LogBytes } from './log-stream.js';
import { decodeLine } from './record-codec.js';

/**
 * What a landing wrote (LandingWriter), kept to check the log read back: 4 bytes a line, the
 * sha256 of the bytes as written and, when the log is sealed at rest, that of its plaintext lines.
 */
export interface WrittenLog {
  readonly count: number;
  /** Bytes of the log as written (as stored). */
  readonly bytes: number;
  /**
   * The check value of line `i` as written: the record's own checksum for a plaintext line, the
   * CRC-32 of the line's bytes as stored (without '\n') for a sealed one.
   */
  checkAt(i: number): number | undefined;
  /** sha256 of the log's bytes as written (as stored: ciphertext lines when sealed). */
  storedSha256(): string;
  /**
   * A log sealed at rest: its plaintext lines (each with '\n': what a receiver's plaintext check
   * hashes) counted and hashed as written. Undefined for a plaintext log, whose bytes on disk are
   * its plaintext lines.
   */
  sealedPlain(): { bytes: number; sha256: string } | undefined;
}

/**
 * The landing's read-back (ARCHITECTURE.md §4, step 1): one streaming pass over the new log that
 * proves the bytes on disk are the bytes written, counts the lines and hashes the file, before
 * anything is offered. Throws IO_ERROR naming the first line that differs.
 *
 * Every line is checked against the value the writer kept for it, and the file's sha256 (hashed
 * here in the same pass) against the one the writer hashed as the bytes went out. Plaintext
 * lines: each line's own checksum (checkLineCrc, or the record's for an older layout) must match
 * its bytes and equal the one written at that line.
 *
 * Sealed lines (issue 17) are not deciphered — that was ~1 s of CPU per 100,000 records, to learn
 * nothing the writer did not know. The writer kept the CRC-32 of each line's bytes as stored, and
 * each line's CRC-32 is compared with it. Why that proves what deciphering proved:
 * - a flipped or changed byte inside a line: CRC-32 catches every error burst up to 32 bits, so
 *   any one byte changed (or any run of ≤ 4 bytes) fails that line's CRC, and the line is named;
 * - a flipped '\n' or a byte turned into one: the lines no longer split where they were written —
 *   the count differs and the merged or cut lines fail their CRC;
 * - a torn tail (the last bytes missing or zeroed): the count or the last line's CRC differs;
 *   bytes after the last line: the file's size differs from the bytes written;
 * - anything wider that happens to keep every line's CRC: the sha256 of the file differs from the
 *   one hashed as the bytes were written (the strength GCM's tag gave, without the cipher);
 * - the ciphertext is what the writer sealed, so it opens with the key: equal bytes cannot fail
 *   authentication later unless they change, and a later change is what recovery and the
 *   receiver's checks catch (the read-back proves the landing, not the disk's future).
 * The plaintext figures (bytes and sha256 of the plaintext lines) are the writer's: equal stored
 * bytes hold exactly those plaintext lines, since a line decrypts one way only.
 */
export async function readBackLanding(fs: DurableFs, path: string, sessionId: string, written: WrittenLog): Promise<LogBytes> {
  const sealed = written.sealedPlain();
  let count = 0;
  let wrong: number | undefined;
  let read: LogBytes;
  try {
    const file = await fs.open(path, 'r');
    try {
      const size = (await file.stat()).size;
      read = await streamLog(
        file,
        size,
        sealed
          ? (line) => {
              if (wrong === undefined && crc32(line) !== written.checkAt(count)) wrong = count;
              count++;
            }
          : (line) => {
              // The byte-CRC suffix read as a number in place (no string per line); an older layout's record decoded.
              const crc = lineCrcMatches(line) ? hex8At(line, line.length - 10) : crcOfDecoded(line);
              if (wrong === undefined && crc !== written.checkAt(count)) wrong = count;
              count++;
            },
      );
    } finally {
      await file.close();
    }
  } catch (error) {
    throw fromFsError(error, path, 'reading the message log back');
  }
  const differs =
    wrong !== undefined ? `line ${wrong + 1} does not hold the record written there` : count !== written.count ? `${count} lines instead of ${written.count}` : read.bytes !== written.bytes ? `${read.bytes} bytes instead of ${written.bytes}` : read.sha256 !== written.storedSha256() ? 'its bytes hash differently from those written' : undefined;
  if (differs) throw new StoreError('IO_ERROR', `Session ${sessionId}: the log read back differs from what was written (${differs}); nothing was offered.`, path);
  return sealed ? { bytes: sealed.bytes, sha256: sealed.sha256, stored: { bytes: read.bytes, sha256: read.sha256 } } : read;
}

/** The checksum of a line in an older layout (or a damaged one: -1, which no written value equals). */
function crcOfDecoded(line: Buffer): number {
  const crc = decodeLine(line)?.crc;
  return crc === undefined ? -1 : Number.parseInt(crc, 16);
}
