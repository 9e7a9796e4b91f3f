import type { ReadableFile } from './paged-read.js';
import { streamLog } from './log-stream.js';
import { decodeLine, type ByteRange, type StoredRecord } from './record-codec.js';

/**
 * Every record of a log in order, one streaming pass (log-stream.ts), under the same rules as a
 * whole read (record-codec.ts's scanLines + acceptRecords): damaged lines skipped, the first record
 * of an id kept, seq increasing; damage followed by a valid record is reported, a torn end is not.
 * Each record is parsed once and handed on with its line (valid only during the call), so a
 * caller that prints the stored JSON need not serialise it again. Memory: a chunk, and the ids seen.
 */
export async function streamRecords(
  file: ReadableFile,
  size: number,
  onRecord: (record: StoredRecord, line: Buffer) => void | Promise<void>,
): Promise<{ count: number; midDamage: ByteRange[] }> {
  const seen = new Set<string>();
  const midDamage: ByteRange[] = [];
  let lastSeq = -1;
  let count = 0;
  let damageStart: number | undefined;
  await streamLog(file, size, (line, start) => {
    const record = decodeLine(line);
    if (record === undefined) {
      damageStart ??= start;
      return;
    }
    if (damageStart !== undefined) {
      midDamage.push({ start: damageStart, end: start });
      damageStart = undefined;
    }
    if (seen.has(record.id) || record.seq <= lastSeq) return;
    seen.add(record.id);
    lastSeq = record.seq;
    count++;
    return onRecord(record, line);
  });
  return { count, midDamage };
}
