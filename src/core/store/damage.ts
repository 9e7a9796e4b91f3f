import { join } from 'node:path';
import type { Damage, SessionDoc } from '../../shared/session.js';
import type { DurableFs } from '../fs/durable-fs.js';
import { createFileAtomic } from '../fs/write-file-atomic.js';
import { fromFsError } from './errors.js';
import type { ByteRange } from './record-codec.js';

/**
 * Mid-file damage of messages.jsonl: bytes that do not decode but are followed by valid records.
 * They are never cut; whoever finds them first (a reader or the writer's recovery) copies them to
 * a side file named by their byte range and records that in session.json, so every later read,
 * paged or not, and `baton show`, `baton doctor` and the UI can say so.
 */
export const DAMAGED_LOG_FILE = 'messages.jsonl';

export interface QuarantinedRange extends ByteRange {
  sideFile: string;
}

export function sideFileOf(range: ByteRange): string {
  return `messages.damaged-${range.start}-${range.end}.bin`;
}

/** Copies the damaged bytes to their side file (create-if-absent: a second finder writes nothing). */
export async function copyToSideFile(fs: DurableFs, dir: string, range: ByteRange, read: (length: number, position: number) => Promise<Buffer>): Promise<QuarantinedRange> {
  const sideFile = sideFileOf(range);
  const path = join(dir, sideFile);
  const bytes = await read(range.end - range.start, range.start);
  await createFileAtomic(path, bytes, { fs }).catch((error: unknown) => {
    throw fromFsError(error, path, 'quarantining damaged log bytes');
  });
  return { ...range, sideFile };
}

export function damageOf(q: QuarantinedRange, detectedAt: string): Damage {
  return {
    reason: `bytes ${q.start}..${q.end} of ${DAMAGED_LOG_FILE} are damaged but followed by valid records; they were copied to ${q.sideFile} and skipped, nothing after them was cut`,
    sideFile: q.sideFile,
    file: DAMAGED_LOG_FILE,
    start: q.start,
    end: q.end,
    detectedAt,
  };
}

/** The ranges not yet recorded in the document. */
export function unrecorded(doc: SessionDoc, ranges: readonly ByteRange[]): ByteRange[] {
  const known = new Set((doc.damaged ?? []).map((d) => d.sideFile));
  return ranges.filter((r) => !known.has(sideFileOf(r)));
}

/** The document's damage list with these ranges added, or undefined when all were recorded already. */
export function withDamage(doc: SessionDoc, quarantined: readonly QuarantinedRange[], detectedAt: string): Damage[] | undefined {
  const damaged = [...(doc.damaged ?? [])];
  for (const q of quarantined) if (!damaged.some((d) => d.sideFile === q.sideFile)) damaged.push(damageOf(q, detectedAt));
  return damaged.length === (doc.damaged?.length ?? 0) ? undefined : damaged;
}
