import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { newId } from '../../shared/ids.js';
import type { DurableFile, DurableFs } from '../fs/durable-fs.js';
import { ARTIFACTS_DIR, FILE_MODE, artifactName } from './layout.js';
import { CHECKPOINT_RECENT_IDS, type Checkpoint } from './checkpoint.js';
import { encodeNewRecord, type RecordCodec, type StoredRecord } from './record-codec.js';
import type { DuplicateFolder } from './fold-duplicates.js';
import type { LandingBatch, NewArtifact } from './types.js';

/** A new session's messages are written to its log in chunks of about this many bytes. */
export const LANDING_CHUNK_BYTES = 4 * 1024 * 1024;


/**
 * Writes a new session's log into its staging directory a batch at a time (issue 20): each message
 * is folded, encoded, sealed and written once, and what the landing needs afterwards is kept in
 * bounded form — each line's checksum (4 bytes a record, for the read-back), the last
 * CHECKPOINT_RECENT_IDS lines (for the checkpoint) — never the records themselves. `onRecord` sees
 * each record as written, for running totals (digest, summary, anchors).
 */
export class LandingWriter {
  private crcs = new Uint32Array(1024);
  count = 0;
  /** Input messages seen (folded ones included): the positions duplicate-id errors name. */
  private seen = 0;
  private offset = 0;
  private chunk: Buffer[] = [];
  private chunkBytes = 0;
  private readonly artifactsWritten = new Set<string>();
  /** Ring of the last lines: [id, start, end]. */
  private readonly recent: Array<[string, number, number]> = [];
  private last: { seq: number; crc: string } | null = null;

  constructor(
    private readonly fs: DurableFs,
    private readonly staging: string,
    private readonly log: DurableFile,
    private readonly codec: RecordCodec,
    private readonly now: string,
    private readonly folder: DuplicateFolder | null,
    private readonly onRecord?: (record: StoredRecord) => void,
  ) {}

  async add(batch: LandingBatch): Promise<void> {
    // Artifacts the messages refer to land in the same staging directory: never a ref without its file.
    for (const artifact of batch.artifacts) await this.writeArtifact(artifact);
    for (const m of batch.messages) {
      if (this.folder && !this.folder.keep(m, this.seen++)) continue;
      const seq = this.count;
      const { record, line: plain } = encodeNewRecord({ ...m, id: m.id ?? newId('m-'), seq, createdAt: m.createdAt ?? this.now, epoch: 1 } as Omit<StoredRecord, 'crc'>);
      // Sealed (encrypted at rest) before its end offset is counted: offsets are on-disk bytes.
      const line = this.codec.sealLine(seq, plain);
      this.keepCrc(seq, Number.parseInt(record.crc, 16));
      const start = this.offset;
      this.offset += line.length;
      this.recent.push([record.id, start, this.offset]);
      if (this.recent.length > CHECKPOINT_RECENT_IDS) this.recent.shift();
      this.last = { seq, crc: record.crc };
      this.count++;
      this.onRecord?.(record);
      this.chunk.push(line);
      this.chunkBytes += line.length;
      if (this.chunkBytes >= LANDING_CHUNK_BYTES) await this.flush();
    }
  }

  /** Writes what is pending and syncs the log and the artifacts directory. */
  async finish(): Promise<void> {
    await this.flush();
    await this.log.sync();
    if (this.artifactsWritten.size > 0) await this.fs.fsyncDir(join(this.staging, ARTIFACTS_DIR));
  }

  /** The checksum written at line `i` (for the read-back). */
  crcAt(i: number): number | undefined {
    return i < this.count ? this.crcs[i] : undefined;
  }

  get bytes(): number {
    return this.offset;
  }

  /** The checkpoint of the log as written (null when it is empty). */
  checkpoint(): Checkpoint | null {
    if (!this.last) return null;
    const [, lastLineStart] = this.recent[this.recent.length - 1]!;
    return { offset: this.offset, lastSeq: this.last.seq, count: this.count, lastLineStart, lastCrc: this.last.crc, recentIds: this.recent.map((r) => [...r]) };
  }

  notes(): string[] {
    return this.folder?.notes() ?? [];
  }

  private keepCrc(seq: number, crc: number): void {
    if (seq >= this.crcs.length) {
      const grown = new Uint32Array(this.crcs.length * 2);
      grown.set(this.crcs);
      this.crcs = grown;
    }
    this.crcs[seq] = crc;
  }

  private async flush(): Promise<void> {
    if (this.chunkBytes === 0) return;
    await this.log.write(Buffer.concat(this.chunk, this.chunkBytes), this.offset - this.chunkBytes);
    this.chunk = [];
    this.chunkBytes = 0;
  }

  private async writeArtifact(artifact: NewArtifact): Promise<void> {
    const name = artifactName(createHash('sha256').update(artifact.bytes).digest('hex'), artifact.extension);
    if (this.artifactsWritten.has(name)) return;
    this.artifactsWritten.add(name);
    const file = await this.fs.open(join(this.staging, ARTIFACTS_DIR, name), 'wx', FILE_MODE);
    try {
      await file.write(artifact.bytes, 0);
      await file.sync();
    } finally {
      await file.close();
    }
  }
}
