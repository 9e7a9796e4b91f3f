import { join } from 'node:path';
import type { DurableFs } from '../fs/durable-fs.js';
import { fromFsError } from './errors.js';
import { acceptRecords, scanLog, type ByteRange, type StoredRecord } from './record-codec.js';
import { offsetOfSeq, readBackward, readForward } from './paged-read.js';
import { MESSAGES_FILE } from './message-log.js';
import { recordCodecFor } from './at-rest/index.js';
import type { ReadMessagesOptions } from './types.js';

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
  const codec = recordCodecFor(fs, dir);
  try {
    const file = await fs.open(path, 'r');
    try {
      const size = (await file.stat()).size;
      // Pages by seq (paged-read.ts): only the page's bytes, plus a bisection, are read.
      if (options.tail !== undefined) {
        const end = options.beforeSeq === undefined ? size : await offsetOfSeq(file, size, options.beforeSeq, codec);
        return await readBackward(file, end, options.tail, codec);
      }
      if (options.afterSeq !== undefined) {
        const page = await readForward(file, size, await offsetOfSeq(file, size, options.afterSeq + 1, codec), options.limit, codec);
        // A stale record just before the page (see offsetOfSeq) is dropped here.
        return { records: page.records.filter((r) => r.seq > options.afterSeq!), midDamage: page.midDamage };
      }
      const scan = scanLog(await file.read(size, 0), 0, codec);
      let records = acceptRecords(scan.records, new Set(), -1).accepted.map((s) => s.record);
      if (options.limit !== undefined) records = records.slice(0, options.limit);
      return { records, midDamage: scan.midDamage };
    } finally {
      await file.close();
    }
  } catch (error) {
    throw fromFsError(error, path, 'reading the message log');
  }
}
