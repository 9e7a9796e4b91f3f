import { join } from 'node:path';
import type { DurableFs } from '../fs/durable-fs.js';
import { fromFsError } from './errors.js';
import { acceptRecords, scanLog, type ByteRange, type StoredRecord } from './record-codec.js';
import { MESSAGES_FILE } from './message-log.js';
import type { ReadMessagesOptions } from './types.js';

/** First window read from the end for `tail`; doubled until enough records are found. */
export const TAIL_WINDOW_BYTES = 64 * 1024;

/**
 * Reads a session's records straight from disk (another process may be appending), never
 * modifying the file: damaged lines and a torn tail are skipped, duplicates by id dropped. The
 * damaged ranges followed by valid records that the read came across are returned with them.
 */
export interface ReadRecordsResult {
  records: StoredRecord[];
  midDamage: ByteRange[];
}

export async function readRecords(fs: DurableFs, dir: string, options: ReadMessagesOptions = {}): Promise<ReadRecordsResult> {
  const path = join(dir, MESSAGES_FILE);
  try {
    const file = await fs.open(path, 'r');
    try {
      const size = (await file.stat()).size;
      if (options.tail !== undefined) return await readTail(file, size, options.tail);
      const scan = scanLog(await file.read(size, 0), 0);
      let records = acceptRecords(scan.records, new Set(), -1).accepted.map((s) => s.record);
      if (options.afterSeq !== undefined) records = records.filter((r) => r.seq > options.afterSeq!);
      if (options.limit !== undefined) records = records.slice(0, options.limit);
      return { records, midDamage: scan.midDamage };
    } finally {
      await file.close();
    }
  } catch (error) {
    throw fromFsError(error, path, 'reading the message log');
  }
}

async function readTail(file: { read(length: number, position: number): Promise<Buffer> }, size: number, count: number): Promise<ReadRecordsResult> {
  if (count <= 0) return { records: [], midDamage: [] };
  let window = TAIL_WINDOW_BYTES;
  for (;;) {
    const start = Math.max(0, size - window);
    const buf = await file.read(size - start, start);
    // Skip the partial first line unless the window starts at the beginning of the file.
    const first = start === 0 ? 0 : buf.indexOf(0x0a) + 1;
    const scan = scanLog(buf.subarray(first), start + first);
    const records = acceptRecords(scan.records, new Set(), -1).accepted.map((s) => s.record);
    // A range that starts the window may begin before it: left for a read that sees all of it.
    const midDamage = start === 0 ? scan.midDamage : scan.midDamage.filter((r) => r.start > start + first);
    if (records.length >= count || start === 0) return { records: records.slice(-count), midDamage };
    window *= 2;
  }
}
