import type { ReadableFile } from './paged-read.js';
import { plainLines, streamLog, type LineOpener } from './log-stream.js';
import { decodeLine, type ByteRange, type StoredRecord } from './record-codec.js';
import { LineIdSet } from './line-id-set.js';

/**
 * Every record of a log in order, one streaming pass (log-stream.ts), under the same rules as a
 * whole read (record-codec.ts's scanLines + acceptRecords): damaged lines skipped, the first record
 * of an id kept, seq increasing; damage followed by a valid record is reported, a torn end is not.
 * Each record is parsed once and handed on with its (opened) line, valid only during the call, so a
 * caller that prints the stored JSON need not serialise it again. Memory: a chunk, and the ids
 * seen in a compact table (line-id-set.ts).
 */
export async function streamRecords(
  file: ReadableFile,
  size: number,
  onRecord: (record: StoredRecord, line: Buffer) => void | Promise<void>,
  open: LineOpener = plainLines,
): Promise<{ count: number; midDamage: ByteRange[] }> {
  const decode = (stored: Buffer) => {
    const plain = open(stored);
    return plain === undefined ? undefined : { record: decodeLine(plain), plain };
  };
  const seen = new LineIdSet();
  const midDamage: ByteRange[] = [];
  let lastSeq = -1;
  let count = 0;
  let damageStart: number | undefined;
  const accept = (record: StoredRecord, line: Buffer, hash: number, start: number, storedLength: number) => {
    seen.add(hash, start, storedLength);
    lastSeq = record.seq;
    count++;
    return onRecord(record, line);
  };
  await streamLog(file, size, (stored, start) => {
    const opened = decode(stored);
    const record = opened?.record;
    if (record === undefined) {
      damageStart ??= start;
      return;
    }
    if (damageStart !== undefined) {
      midDamage.push({ start: damageStart, end: start });
      damageStart = undefined;
    }
    if (record.seq <= lastSeq) return;
    const hash = LineIdSet.hashOf(record.id);
    const earlier = seen.candidates(hash);
    const line = opened!.plain;
    if (earlier.length === 0) return accept(record, line, hash, start, stored.length);
    // Only a hash match: the earlier lines are read again to tell a repeated id from a collision.
    return (async () => {
      for (const e of earlier) if (decode(await file.read(e.length, e.start))?.record?.id === record.id) return;
      return accept(record, line, hash, start, stored.length);
    })();
  });
  return { count, midDamage };
}
