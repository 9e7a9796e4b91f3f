import type { ReadableFile } from './paged-read.js';
import { forEachLine, plainLines, type LineOpener } from './log-stream.js';
import type { ByteRange } from './record-codec.js';
import { LineIdSet } from './line-id-set.js';

/** What the log's ordering rules look at in a record. */
export interface RecordIdentity {
  readonly id: string;
  seq: number;
  /** LineIdSet.hashOf(id), when the decoder already has it (record-keys.ts takes it from the bytes). */
  idHash?: number;
}

/**
 * Every record of a log in order, one streaming pass (log-stream.ts), under the same rules as a
 * whole read (record-codec.ts's scanLines + acceptRecords): damaged lines skipped, the first record
 * of an id kept, seq increasing; damage followed by a valid record is reported, a torn end is not.
 * `decode` takes what the caller needs from a line (the whole record with decodeLine; only id, seq
 * and checksum with record-keys.ts) and returns undefined for a damaged one. Each accepted record is
 * handed on with its (opened) line, valid only during the call, so a caller that prints the stored
 * JSON need not serialise it again; `onChunk` sees each chunk read, before its lines. Memory: a chunk, and the ids seen in a compact table (line-id-set.ts).
 */
export async function streamRecords<T extends RecordIdentity>(
  file: ReadableFile,
  size: number,
  decode: (line: Buffer) => T | undefined,
  onRecord: (record: T, line: Buffer) => void | Promise<void>,
  open: LineOpener = plainLines,
  onChunk?: (chunk: Buffer) => void,
): Promise<{ count: number; midDamage: ByteRange[] }> {
  const seen = new LineIdSet();
  const midDamage: ByteRange[] = [];
  let lastSeq = -1;
  let count = 0;
  let damageStart: number | undefined;
  const opened = (stored: Buffer) => {
    const plain = open(stored);
    return plain === undefined ? undefined : decode(plain);
  };
  const accept = (record: T, line: Buffer, hash: number, start: number, storedLength: number) => {
    seen.add(hash, start, storedLength);
    lastSeq = record.seq;
    count++;
    return onRecord(record, line);
  };
  // The first chunk read tells about how many records the log holds: the id table is sized for them once.
  let sized = false;
  const chunkSeen = (chunk: Buffer) => {
    if (!sized) {
      sized = true;
      seen.reserve(Math.ceil((linesIn(chunk) * size) / Math.max(1, chunk.length)));
    }
    onChunk?.(chunk);
  };
  await forEachLine(file, size, (stored, start) => {
    const plain = open(stored);
    const record = plain === undefined ? undefined : decode(plain);
    if (record === undefined) {
      damageStart ??= start;
      return;
    }
    if (damageStart !== undefined) {
      midDamage.push({ start: damageStart, end: start });
      damageStart = undefined;
    }
    if (record.seq <= lastSeq) return;
    const hash = record.idHash ?? LineIdSet.hashOf(record.id);
    const earlier = seen.candidates(hash);
    if (earlier.length === 0) return accept(record, plain!, hash, start, stored.length);
    // Only a hash match: the earlier lines are read again to tell a repeated id from a collision.
    return (async () => {
      for (const e of earlier) if (opened(await file.read(e.length, e.start))?.id === record.id) return;
      return accept(record, plain!, hash, start, stored.length);
    })();
  }, undefined, chunkSeen);
  return { count, midDamage };
}

function linesIn(chunk: Buffer): number {
  let n = 0;
  for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) n++;
  return n;
}
