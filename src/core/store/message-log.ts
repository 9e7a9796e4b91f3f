import { join } from 'node:path';
import type { MessageInput } from '../../shared/message.js';
import type { DurableFile, DurableFs } from '../fs/durable-fs.js';
import { copyToSideFile, type QuarantinedRange } from './damage.js';
import { StoreError, fromFsError } from './errors.js';
import { CHECKPOINT_INTERVAL_BYTES, CHECKPOINT_RECENT_IDS, readCheckpoint, writeCheckpoint, type Checkpoint } from './checkpoint.js';
import { acceptRecords, encodeNewRecord, scanLog, type ByteRange, type RecordCodec, type StoredRecord } from './record-codec.js';
import { recordCodecFor } from './at-rest/index.js';
import { newId } from '../../shared/ids.js';

export const MESSAGES_FILE = 'messages.jsonl';
/** In-memory ids remembered for de-duplicating retried appends (oldest forgotten first). */
export const RECENT_IDS_MAX = 100_000;

export type { QuarantinedRange } from './damage.js';

export interface RecoveryReport {
  /** Offset the scan started from (the checkpoint), and how many bytes it read. */
  scannedFrom: number;
  scannedBytes: number;
  truncatedTail?: ByteRange;
  quarantined: QuarantinedRange[];
  count: number;
  lastSeq: number;
}

export interface AppendRequest {
  epoch: number;
  inputs: MessageInput[];
  resolve: (records: StoredRecord[]) => void;
  reject: (error: unknown) => void;
}

export interface MessageLogOptions {
  fs: DurableFs;
  now: () => Date;
  /** The holder epoch now in session.json (stat-cached by the caller). */
  currentEpoch: () => Promise<number>;
  /** Called after each durable commit, for metadata (messageCount) flushing. */
  onCommit?: () => void;
}

/**
 * The append side of one session's messages.jsonl, owned by one process. Appends are queued and
 * committed in groups: one write and one fsync for every request that arrived meanwhile, and each
 * request resolves only after that fsync. A failed write or fsync is never retried on the same
 * bytes: the log is cut back to the last durable offset (and that cut fsynced) before the next commit.
 */
export class MessageLog {
  private file: DurableFile | undefined;
  private durableEnd = 0;
  private lastSeq = -1;
  private lastLineStart = 0;
  private lastCrc = '';
  private checkpointAt = 0;
  private readonly ids = new Map<string, ByteRange>();
  /** The last CHECKPOINT_RECENT_IDS records, for the next checkpoint (a ring, oldest first after `recentAt`). */
  private readonly recent: Array<[string, number, number]> = [];
  private recentAt = 0;
  private queue: AppendRequest[] = [];
  private committing: Promise<void> | undefined;
  private poisoned = false;
  count = 0;
  /** Plaintext lines, or one sealed record a line when the store is encrypted at rest. */
  private readonly codec: RecordCodec;

  private constructor(
    readonly dir: string,
    private readonly opts: MessageLogOptions,
  ) {
    this.codec = recordCodecFor(opts.fs, dir);
  }

  get path(): string {
    return join(this.dir, MESSAGES_FILE);
  }

  get nextSeq(): number {
    return this.lastSeq + 1;
  }

  /** Opens for appending and recovers: torn tail truncated and fsynced, mid-file damage quarantined. */
  static async open(dir: string, opts: MessageLogOptions): Promise<{ log: MessageLog; report: RecoveryReport }> {
    const log = new MessageLog(dir, opts);
    try {
      return { log, report: await log.recover() };
    } catch (error) {
      await log.file?.close().catch(() => undefined);
      throw error;
    }
  }

  private async recover(): Promise<RecoveryReport> {
    const { fs } = this.opts;
    try {
      this.file = await fs.open(this.path, 'a+', 0o600);
    } catch (error) {
      throw fromFsError(error, this.path, 'opening the message log');
    }
    const file = this.file;
    const size = (await file.stat()).size;
    const cp = await readCheckpoint(fs, this.dir, size, (s, e) => file.read(e - s, s), this.codec).catch(() => undefined);
    const from = cp?.offset ?? 0;
    if (cp) this.applyCheckpoint(cp);
    const bytes = await file.read(size - from, from);
    const scan = scanLog(bytes, from, this.codec);
    const quarantined: QuarantinedRange[] = [];
    for (const range of scan.midDamage) quarantined.push(await this.quarantine(file, range));
    const { accepted, lastSeq } = acceptRecords(scan.records, new Set(this.ids.keys()), this.lastSeq);
    for (const s of accepted) this.remember(s.record, s);
    this.lastSeq = lastSeq;
    this.count += accepted.length;
    let end = size;
    if (scan.tail) {
      try {
        await file.truncate(scan.tail.start);
        end = scan.tail.start;
      } catch (error) {
        throw fromFsError(error, this.path, 'truncating a torn tail of the message log');
      }
    }
    try {
      // What we read may still sit only in the page cache (a killed writer): make it durable first.
      await file.sync();
    } catch (error) {
      this.poisoned = true;
      throw fromFsError(error, this.path, 'syncing the recovered message log');
    }
    this.durableEnd = end;
    if (end - this.checkpointAt >= CHECKPOINT_INTERVAL_BYTES) await this.checkpoint().catch(() => undefined);
    return { scannedFrom: from, scannedBytes: size - from, truncatedTail: scan.tail, quarantined, count: this.count, lastSeq: this.lastSeq };
  }

  private applyCheckpoint(cp: Checkpoint): void {
    this.lastSeq = cp.lastSeq;
    this.count = cp.count;
    this.lastLineStart = cp.lastLineStart;
    this.lastCrc = cp.lastCrc;
    this.checkpointAt = cp.offset;
    for (const [id, start, end] of cp.recentIds) {
      this.ids.set(id, { start, end });
      this.pushRecent(id, start, end);
    }
  }

  private pushRecent(id: string, start: number, end: number): void {
    if (this.recent.length < CHECKPOINT_RECENT_IDS) this.recent.push([id, start, end]);
    else {
      this.recent[this.recentAt] = [id, start, end];
      this.recentAt = (this.recentAt + 1) % CHECKPOINT_RECENT_IDS;
    }
  }

  private remember(record: StoredRecord, range: ByteRange): void {
    this.ids.set(record.id, range);
    this.pushRecent(record.id, range.start, range.end);
    if (this.ids.size > RECENT_IDS_MAX) this.ids.delete(this.ids.keys().next().value as string);
    this.lastLineStart = range.start;
    this.lastCrc = record.crc;
  }

  /** Copies damaged bytes to a side file; the log itself keeps them (never cut what is followed by data). */
  private quarantine(file: DurableFile, range: ByteRange): Promise<QuarantinedRange> {
    return copyToSideFile(this.opts.fs, this.dir, range, (length, position) => file.read(length, position));
  }

  private async checkpoint(): Promise<void> {
    const recentIds = [...this.recent.slice(this.recentAt), ...this.recent.slice(0, this.recentAt)];
    await writeCheckpoint(this.opts.fs, this.dir, { offset: this.durableEnd, lastSeq: this.lastSeq, count: this.count, lastLineStart: this.lastLineStart, lastCrc: this.lastCrc, recentIds });
    this.checkpointAt = this.durableEnd;
  }

  append(epoch: number, inputs: MessageInput[]): Promise<StoredRecord[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ epoch, inputs, resolve, reject });
      if (!this.committing) this.committing = this.commitLoop().finally(() => (this.committing = undefined));
    });
  }

  private async commitLoop(): Promise<void> {
    // Let callers that append in the same tick join the first group.
    await new Promise<void>((r) => setImmediate(r));
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      await this.commit(batch);
    }
  }

  private async commit(batch: AppendRequest[]): Promise<void> {
    const fail = (reqs: AppendRequest[], error: unknown): void => reqs.forEach((r) => r.reject(error));
    let epoch: number;
    try {
      await this.heal();
      await this.resync();
      epoch = await this.opts.currentEpoch();
    } catch (error) {
      return fail(batch, fromFsError(error, this.path, 'preparing to append'));
    }
    const live = batch.filter((r) => (r.epoch === epoch ? true : (r.reject(staleError(this.dir, r.epoch, epoch)), false)));
    if (live.length === 0) return;
    let known: Map<string, StoredRecord>;
    try {
      known = await this.readKnown(live);
    } catch (error) {
      return fail(live, fromFsError(error, this.path, 'reading back a retried record'));
    }
    const { chunks, results, fresh } = this.build(live, known);
    const startEnd = this.durableEnd;
    const bytes = Buffer.concat(chunks);
    if (bytes.length > 0) {
      try {
        await this.file!.write(bytes);
        await this.file!.sync();
      } catch (error) {
        // After a failed fsync the page cache may no longer match the disk: never retry it, cut back.
        this.poisoned = true;
        return fail(live, fromFsError(error, this.path, 'appending to the message log'));
      }
    }
    const size = (await this.file!.stat().catch(() => undefined))?.size;
    let offset = startEnd;
    fresh.forEach((record, i) => {
      const end = offset + chunks[i]!.length;
      this.remember(record, { start: offset, end });
      offset = end;
    });
    this.lastSeq += fresh.length;
    this.count += fresh.length;
    this.durableEnd = size === startEnd + bytes.length ? size : startEnd;
    const after = await this.opts.currentEpoch().catch(() => epoch);
    for (let i = 0; i < live.length; i++) {
      const req = live[i]!;
      if (after !== req.epoch) req.reject(staleError(this.dir, req.epoch, after));
      else req.resolve(results[i]!);
    }
    if (bytes.length > 0) this.opts.onCommit?.();
    if (this.durableEnd - this.checkpointAt >= CHECKPOINT_INTERVAL_BYTES) await this.checkpoint().catch(() => undefined);
  }

  /** Records for each request; ids already in the log are returned as they are, not written twice. */
  private build(reqs: AppendRequest[], known: Map<string, StoredRecord>): { chunks: Buffer[]; results: StoredRecord[][]; fresh: StoredRecord[] } {
    const chunks: Buffer[] = [];
    const fresh: StoredRecord[] = [];
    const batchIds = new Map<string, StoredRecord>();
    const createdAt = this.opts.now().toISOString();
    let seq = this.lastSeq;
    const results = reqs.map((req) =>
      req.inputs.map((input) => {
        const id = input.id ?? newId('m-');
        const existing = batchIds.get(id) ?? known.get(id);
        if (existing) return existing;
        seq += 1;
        const { record, line } = encodeNewRecord({ ...input, id, seq, createdAt: input.createdAt ?? createdAt, epoch: req.epoch } as Omit<StoredRecord, 'crc'>);
        batchIds.set(id, record);
        fresh.push(record);
        chunks.push(this.codec.sealLine(seq, line));
        return record;
      }),
    );
    return { chunks, results, fresh };
  }

  /** Records already in the log for ids the requests carry again (a retry after an unacknowledged append). */
  private async readKnown(reqs: AppendRequest[]): Promise<Map<string, StoredRecord>> {
    const known = new Map<string, StoredRecord>();
    for (const req of reqs) {
      for (const input of req.inputs) {
        const range = input.id === undefined ? undefined : this.ids.get(input.id);
        if (!range || known.has(input.id!)) continue;
        const line = await this.file!.read(range.end - range.start, range.start);
        const record = scanLog(line, range.start, this.codec).records[0]?.record;
        if (record && record.id === input.id) known.set(record.id, record);
      }
    }
    return known;
  }

  /** After a failed write/fsync: reopen, cut back to the last durable offset, and fsync that cut. */
  private async heal(): Promise<void> {
    if (!this.poisoned) return;
    await this.file?.close().catch(() => undefined);
    this.file = await this.opts.fs.open(this.path, 'a+', 0o600);
    await this.file.truncate(this.durableEnd);
    await this.file.sync();
    this.poisoned = false;
  }

  /** Another process appended (it held the baton before us): take its records into account. */
  private async resync(): Promise<void> {
    const size = (await this.file!.stat()).size;
    if (size === this.durableEnd) return;
    if (size < this.durableEnd) throw new StoreError('IO_ERROR', `The message log shrank under us (${this.path}); reopen the session.`, this.path);
    const scan = scanLog(await this.file!.read(size - this.durableEnd, this.durableEnd), this.durableEnd, this.codec);
    const { accepted, lastSeq } = acceptRecords(scan.records, new Set(this.ids.keys()), this.lastSeq);
    for (const s of accepted) this.remember(s.record, s);
    this.count += accepted.length;
    this.lastSeq = lastSeq;
    this.durableEnd = scan.tail ? scan.tail.start : size;
  }

  async close(): Promise<void> {
    await this.committing;
    await this.file?.close().catch(() => undefined);
    this.file = undefined;
  }
}

function staleError(dir: string, epoch: number, current: number): StoreError {
  return new StoreError('STALE_HOLDER', `Write refused: epoch ${epoch} no longer holds this session (holder epoch is ${current}). Claim the session again before writing.`, dir);
}
