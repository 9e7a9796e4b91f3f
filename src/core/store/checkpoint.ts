import { join } from 'node:path';
import type { DurableFs } from '../fs/durable-fs.js';
import { tempPathFor } from '../fs/write-file-atomic.js';
import { canonicalJson, crc32Hex } from './canonical.js';
import { plainRecordCodec, type RecordCodec } from './record-codec.js';

/**
 * messages.checkpoint.json: the last verified offset and seq of messages.jsonl, so opening a log
 * scans only what was written after it (recovery cost independent of log size). Written with the
 * atomic protocol; a missing, damaged or inconsistent checkpoint only means a full scan.
 */
export const CHECKPOINT_FILE = 'messages.checkpoint.json';
/** Write a new checkpoint once this many bytes were appended after the last one. */
export const CHECKPOINT_INTERVAL_BYTES = 256 * 1024;
/** Ids of the last records kept in the checkpoint, so a retried append is recognised after a restart. */
export const CHECKPOINT_RECENT_IDS = 256;

export interface Checkpoint {
  offset: number;
  lastSeq: number;
  count: number;
  lastLineStart: number;
  lastCrc: string;
  /** [id, start, end] of the last records. */
  recentIds: Array<[string, number, number]>;
}

export function checkpointPath(dir: string): string {
  return join(dir, CHECKPOINT_FILE);
}

/**
 * temp → rename, deliberately without fsync: the checkpoint only ever names bytes that are already
 * durable, and one lost or torn by power loss fails its checks and costs a longer scan, never data.
 * Skipping three fsyncs per checkpoint keeps it off the append path's critical cost.
 */
export async function writeCheckpoint(fs: DurableFs, dir: string, cp: Checkpoint): Promise<void> {
  const body = { v: 1, ...cp };
  const target = checkpointPath(dir);
  const temp = tempPathFor(target);
  const file = await fs.open(temp, 'wx', 0o600);
  try {
    await file.write(Buffer.from(JSON.stringify({ ...body, crc: crc32Hex(canonicalJson(body)) })), 0);
  } finally {
    await file.close();
  }
  await fs.rename(temp, target).catch(async (error: unknown) => {
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  });
}

/** The checkpoint when it is intact and still matches the log's bytes; undefined otherwise. */
export async function readCheckpoint(fs: DurableFs, dir: string, logSize: number, readAt: (start: number, end: number) => Promise<Buffer>, codec: RecordCodec = plainRecordCodec): Promise<Checkpoint | undefined> {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse((await fs.readFile(checkpointPath(dir))).toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const { crc, ...body } = raw;
  if (typeof crc !== 'string' || crc32Hex(canonicalJson(body)) !== crc || body.v !== 1) return undefined;
  const cp = body as unknown as Checkpoint;
  if (![cp.offset, cp.lastSeq, cp.count, cp.lastLineStart].every(Number.isInteger) || !Array.isArray(cp.recentIds)) return undefined;
  if (cp.offset > logSize || cp.lastLineStart >= cp.offset) return cp.offset === 0 ? cp : undefined;
  // The line just before the offset must still be the record the checkpoint names.
  const line = await readAt(cp.lastLineStart, cp.offset);
  if (line[line.length - 1] !== 0x0a) return undefined;
  const record = codec.decode(line.subarray(0, line.length - 1));
  if (!record || record.crc !== cp.lastCrc || record.seq !== cp.lastSeq) return undefined;
  return cp;
}
