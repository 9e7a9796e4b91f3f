import { createHash, type Hash } from 'node:crypto';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { newId } from '../../shared/ids.js';
import type { DurableFile, DurableFs } from '../fs/durable-fs.js';
import { ARTIFACTS_DIR, FILE_MODE, artifactName, namedArtifactName } from './layout.js';
import { StoreError } from './errors.js';
import { CHECKPOINT_RECENT_IDS, type Checkpoint } from './checkpoint.js';
import { newRecordJson, plainRecordCodec, type RecordCodec, type StoredRecord } from './record-codec.js';
import { sealLine, sealLineInto } from './line-crc.js';
import type { DuplicateFolder } from './fold-duplicates.js';
import type { LandingBatch, NewArtifact } from './types.js';
import type { WrittenLog } from './landing-read-back.js';

/** A new session's messages are written to its log in chunks of about this many bytes. */
export const LANDING_CHUNK_BYTES = 4 * 1024 * 1024;
/**
 * Artifact files whose fsync may be under way at once (each holds its file open until synced): an
 * import with thousands of full outputs keeps at most this many descriptors, and a handoff's few
 * artifacts are synced together with the log in finish(), one journal commit instead of one each.
 */
export const ARTIFACT_SYNCS_IN_FLIGHT = 8;
/** Room sealLineInto asks for besides 3 bytes a UTF-16 unit of the JSON (its suffix and '\n'), with a margin. */
const PLAIN_LINE_EXTRA_BYTES = 64;

/**
 * Writes a new session's log into its staging directory a batch at a time (issue 20): each message
 * is folded, encoded, sealed and written once, and what the landing needs afterwards is kept in
 * bounded form — each line's check value (4 bytes a record, for the read-back: landing-read-back.ts),
 * the last CHECKPOINT_RECENT_IDS lines (for the checkpoint) — never the records themselves.
 * `onRecord` sees each record as written, for running totals (digest, summary, anchors).
 */
export class LandingWriter implements WrittenLog {
  private checks = new Uint32Array(1024);
  count = 0;
  /** Input messages seen (folded ones included): the positions duplicate-id errors name. */
  private seen = 0;
  /** Bytes of the log placed so far (written, or waiting in `chunk`). */
  private offset = 0;
  /**
   * Lines are copied into this one buffer and written from it when full: holding each line's own
   * Buffer until a chunk was written (then a concat of them) kept 4 MiB of small buffers and an
   * 8 KiB pool slab per ~20 lines alive long enough to be promoted, 30–50 MB of external memory
   * between collections at 1,000,000 messages.
   */
  private readonly chunk = Buffer.allocUnsafeSlow(LANDING_CHUNK_BYTES);
  private chunkBytes = 0;
  /** Sealed at rest: each record's plaintext line before its seal (placeSealed), made here rather than in a Buffer of its own. */
  private plainScratch = Buffer.alloc(0);
  private readonly artifactsWritten = new Set<string>();
  /** Artifact files written and not yet known synced (and closed), oldest first: finish() awaits them all. */
  private readonly syncing: Promise<void>[] = [];
  /** Ring of the last lines: [id, start, end]. */
  private readonly recent: Array<[string, number, number]> = [];
  private last: { seq: number; crc: string } | null = null;
  /** The bytes as stored, hashed as they are written: the read-back's whole-file check. */
  private readonly stored = createHash('sha256');
  /** Sealed at rest: the plaintext lines hashed as written (what the read-back no longer deciphers to learn). */
  private readonly plain: { hash: Hash; bytes: number } | null;

  constructor(
    private readonly fs: DurableFs,
    private readonly staging: string,
    private readonly log: DurableFile,
    private readonly codec: RecordCodec,
    private readonly now: string,
    private readonly folder: DuplicateFolder | null,
    private readonly onRecord?: (record: StoredRecord) => void,
  ) {
    this.plain = codec === plainRecordCodec ? null : { hash: createHash('sha256'), bytes: 0 };
  }

  async add(batch: LandingBatch): Promise<void> {
    // Artifacts the messages refer to land in the same staging directory: never a ref without its file.
    for (const artifact of batch.artifacts) await this.writeArtifact(artifact);
    for (const m of batch.messages) {
      if (this.folder && !this.folder.keep(m, this.seen++)) continue;
      const seq = this.count;
      const { record, json } = newRecordJson({ ...m, id: m.id ?? newId('m-'), seq, createdAt: m.createdAt ?? this.now, epoch: 1 } as Omit<StoredRecord, 'crc'>);
      const start = this.offset;
      record.crc = this.plain ? await this.placeSealed(seq, json, this.plain) : await this.placePlain(seq, json);
      this.recent.push([record.id, start, this.offset]);
      if (this.recent.length > CHECKPOINT_RECENT_IDS) this.recent.shift();
      this.last = { seq, crc: record.crc };
      this.count++;
      this.onRecord?.(record);
    }
  }

  /**
   * A plaintext line is sealed straight into the chunk (sealLineInto: no Buffer and no copy a
   * line); one that may not fit in an empty chunk is sealed on its own. Its check is the record's
   * checksum (landing-read-back.ts). Returns the checksum.
   */
  private async placePlain(seq: number, json: string): Promise<string> {
    let placed = sealLineInto(json, this.chunk, this.chunkBytes);
    if (!placed && this.chunkBytes > 0) {
      await this.flush();
      placed = sealLineInto(json, this.chunk, 0);
    }
    if (!placed) {
      const { line, crc } = sealLine(json);
      this.keepCheck(seq, Number.parseInt(crc, 16));
      await this.place(line);
      return crc;
    }
    this.chunkBytes += placed.length;
    this.offset += placed.length;
    this.keepCheck(seq, placed.check);
    return placed.crc;
  }

  /**
   * A line sealed at rest (encrypted before its end offset is counted: offsets are on-disk bytes):
   * its plaintext line made in a buffer kept for that, its envelope sealed straight into the chunk
   * (no Buffer a line for either), or on its own when it may not fit in an empty chunk. Its check
   * is the CRC of its bytes as stored. Returns the record's checksum.
   */
  private async placeSealed(seq: number, json: string, plain: { hash: Hash; bytes: number }): Promise<string> {
    const { line: plainLine, crc } = this.plainLineOf(json);
    plain.hash.update(plainLine);
    plain.bytes += plainLine.length;
    const body = plainLine.subarray(0, plainLine.length - 1);
    let length = this.codec.sealLineInto(seq, body, this.chunk, this.chunkBytes);
    if (length === undefined && this.chunkBytes > 0) {
      await this.flush();
      length = this.codec.sealLineInto(seq, body, this.chunk, 0);
    }
    if (length === undefined) {
      const line = this.codec.sealLine(seq, plainLine);
      this.keepCheck(seq, crc32(line.subarray(0, line.length - 1)));
      await this.place(line);
      return crc;
    }
    this.keepCheck(seq, crc32(this.chunk.subarray(this.chunkBytes, this.chunkBytes + length - 1)));
    this.chunkBytes += length;
    this.offset += length;
    return crc;
  }

  /**
   * A record's plaintext line (with '\n') for sealing: in `plainScratch` (valid until the next
   * record), grown to fit up to a chunk's size; a longer one gets a Buffer of its own.
   */
  private plainLineOf(json: string): { line: Buffer; crc: string } {
    let placed = sealLineInto(json, this.plainScratch, 0);
    if (!placed && json.length * 3 + PLAIN_LINE_EXTRA_BYTES <= this.chunk.length) {
      this.plainScratch = Buffer.allocUnsafeSlow(Math.min(this.chunk.length, 2 ** Math.ceil(Math.log2(json.length * 3 + PLAIN_LINE_EXTRA_BYTES))));
      placed = sealLineInto(json, this.plainScratch, 0);
    }
    return placed ? { line: this.plainScratch.subarray(0, placed.length), crc: placed.crc } : sealLine(json);
  }

  /** A whole line into the chunk, or written at its place on its own when it is longer than a chunk (a message of megabytes). */
  private async place(line: Buffer): Promise<void> {
    const start = this.offset;
    if (this.chunkBytes + line.length > this.chunk.length) await this.flush();
    if (line.length > this.chunk.length) {
      await this.log.write(line, start);
      this.stored.update(line);
    } else {
      line.copy(this.chunk, this.chunkBytes);
      this.chunkBytes += line.length;
    }
    this.offset += line.length;
  }

  /**
   * Writes what is pending and syncs the log with every artifact still syncing, concurrently,
   * then the artifacts directory (its entries, once the files they name are durable).
   */
  async finish(): Promise<void> {
    await this.flush();
    await Promise.all([this.log.sync(), ...this.syncing.splice(0)]);
    if (this.artifactsWritten.size > 0) await this.fs.fsyncDir(join(this.staging, ARTIFACTS_DIR));
  }

  checkAt(i: number): number | undefined {
    return i < this.count ? this.checks[i] : undefined;
  }

  storedSha256(): string {
    return this.stored.copy().digest('hex');
  }

  sealedPlain(): { bytes: number; sha256: string } | undefined {
    return this.plain ? { bytes: this.plain.bytes, sha256: this.plain.hash.copy().digest('hex') } : undefined;
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

  private keepCheck(seq: number, value: number): void {
    if (seq >= this.checks.length) {
      const grown = new Uint32Array(this.checks.length * 2);
      grown.set(this.checks);
      this.checks = grown;
    }
    this.checks[seq] = value;
  }

  /** Writes the chunk's bytes at their place (the chunk ends at `offset`) and empties it for reuse: the write is awaited first. */
  private async flush(): Promise<void> {
    if (this.chunkBytes === 0) return;
    const bytes = this.chunk.subarray(0, this.chunkBytes);
    await this.log.write(bytes, this.offset - this.chunkBytes);
    this.stored.update(bytes);
    this.chunkBytes = 0;
  }

  private async writeArtifact(artifact: NewArtifact): Promise<void> {
    const name = artifact.name === undefined ? artifactName(createHash('sha256').update(artifact.bytes).digest('hex'), artifact.extension) : namedArtifactName(artifact.name);
    // The same hash is the same bytes; the same name twice would be two contents for one file.
    if (this.artifactsWritten.has(name)) {
      if (artifact.name === undefined) return;
      throw new StoreError('BAD_REQUEST', `The artifact ${name} is given twice in one landing.`);
    }
    this.artifactsWritten.add(name);
    // Bounded: the oldest sync is awaited before another file is opened.
    if (this.syncing.length >= ARTIFACT_SYNCS_IN_FLIGHT) await this.syncing.shift();
    const file = await this.fs.open(join(this.staging, ARTIFACTS_DIR, name), 'wx', FILE_MODE);
    try {
      await file.write(artifact.bytes, 0);
    } catch (error) {
      await file.close();
      throw error;
    }
    // Synced beside the next writes and the log (finish() awaits it; nothing is visible before the
    // staging directory's rename, which follows finish()). Its failure fails the landing there.
    const synced = file.sync().finally(() => file.close());
    synced.catch(() => undefined);
    this.syncing.push(synced);
  }
}
