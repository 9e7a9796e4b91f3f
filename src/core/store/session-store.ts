import { createHash, randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { MessageInput, MessageRecord } from '../../shared/message.js';
import { newId } from '../../shared/ids.js';
import { SESSION_SCHEMA_VERSION, SessionDoc, indexRowOf, type IndexRow } from '../../shared/session.js';
import { nodeDurableFs, type DurableFs } from '../fs/durable-fs.js';
import { createFileAtomic, writeFileAtomic } from '../fs/write-file-atomic.js';
import { StoreError, errnoOf, fromFsError } from './errors.js';
import { cleanTemps, creatingName } from './housekeeping.js';
import { deleteSessionFiles, finishPendingDeletes, type DeleteSteps } from './delete-session.js';
import { INDEX_FILE, INDEX_JOURNAL, IndexFile, rowOf, type Row } from './index-file.js';
import { ARCHIVED_DIR, ARTIFACTS_DIR, DIR_MODE, EVENTS_FILE, FILE_MODE, HANDOFFS_FILE, HANDOFF_FILE, NAMED_ARTIFACT, RECEIPTS_DIR, SESSIONS_DIR, archivedDir, artifactName, checkId, liveDir, namedArtifactName } from './layout.js';
import { copyToSideFile, unrecorded, withDamage, type QuarantinedRange } from './damage.js';
import { DuplicateFolder, foldDuplicateIds } from './fold-duplicates.js';
import { LandingWriter } from './landing-writer.js';
import { readBackLanding, type WrittenLog } from './landing-read-back.js';
import { restoreDocFiles } from './restore-doc.js';
import { describeIssues, safeParseSessionDoc } from './typed-fields.js';
import { LineLog } from './line-log.js';
import { readRecords } from './log-reader.js';
import { MESSAGES_FILE, MessageLog, type RecoveryReport } from './message-log.js';
import { checkOwnedPath, checkStoreTree } from './permissions.js';
import { decodeRecordKeys, type RecordKeys } from './record-keys.js';
import { plainRecordCodec, type ByteRange, type StoredRecord } from './record-codec.js';
import { streamLog, type LineOpener, type LogBytes } from './log-stream.js';
import { streamRecords } from './stream-records.js';
import { CHECKPOINT_INTERVAL_BYTES, writeCheckpoint } from './checkpoint.js';
import { encryptingFs, recordCodecFor } from './at-rest/index.js';
import { registerStoreFs } from './at-rest/registry.js';
import { osKeyStore, type KeyStore } from './at-rest/key-store.js';
import { readAheadFs } from '../fs/read-ahead-fs.js';
import { resolveAtRest, type AtRestStatus } from './at-rest/at-rest-state.js';
import { commitSessionDoc, docStamp, isSessionDoc, readSessionDoc, revisionMarker, SESSION_FILE, type LoadedDoc } from './session-doc-file.js';
import type { LandedLog, LandedStream, LandingBatch, LandingStreamOptions, NewArtifact, NewSession, ReadMessagesOptions, Receipt, SessionStore } from './types.js';

/** Waits for both (a file is never closed under a sync still running), then throws the first one's failure. */
async function settleBoth(first: Promise<void>, second: Promise<void>): Promise<void> {
  const [a, b] = await Promise.allSettled([first, second]);
  if (a.status === 'rejected') throw a.reason;
  if (b.status === 'rejected') throw b.reason;
}

async function* oneBatch(batch: LandingBatch): AsyncIterable<LandingBatch> {
  yield batch;
}

/** An error thrown while the caller produced the next batch (its input), told apart from the store's own. */
class CallerInputFailure {
  constructor(readonly cause: unknown) {}
}

async function* fromCaller(batches: AsyncIterable<LandingBatch>): AsyncIterable<LandingBatch> {
  const iterator = batches[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      let next: IteratorResult<LandingBatch>;
      try {
        next = await iterator.next();
      } catch (error) {
        finished = true;
        throw new CallerInputFailure(error);
      }
      if (next.done) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // The landing stopped early (a write failed): the caller's input is closed (a file stream released).
    if (!finished) await iterator.return?.(undefined)?.catch(() => undefined);
  }
}

export interface OpenStoreOptions {
  /** The file-system layer every write goes through (tests inject faults here). */
  fs?: DurableFs;
  now?: () => Date;
  /** Delay before messageCount/updatedAt are written back after appends (group several commits). */
  metadataFlushMs?: number;
  /** Where the at-rest data key lives (the OS keychain by default); null: no secret store, the store stays unencrypted unless it already is. */
  keyStore?: KeyStore | null;
  /**
   * Opened to read only (open-for-reading.ts): init keeps every check that protects the reader
   * (ownership, no links, 0700/0600, the at-rest key) and skips the writer's own work (mkdir, the
   * read-ahead, the version probe, the temp sweep, finishing deletes); every write is refused.
   */
  forReading?: { reason: string };
}

/** CAS retries of mutate() before CONFLICT reaches the caller (many writers on one session). */
export const MUTATE_CAS_RETRIES = 50;
/** messageCount/updatedAt write-back delay: list() may lag appends by this much, fsyncs stay few. */
export const METADATA_FLUSH_MS = 200;
const EMPTY_LINE = Buffer.alloc(0);
const NEWLINE = Buffer.from('\n');
export { LANDING_CHUNK_BYTES } from './landing-writer.js';
const ARTIFACT_REF = /^artifacts\/[0-9a-f]{64}(\.[A-Za-z0-9]{1,16})?$/;

interface Located {
  dir: string;
  archived: boolean;
}

export class FileSessionStore implements SessionStore {
  private fs: DurableFs;
  private readonly now: () => Date;
  private index: IndexFile;
  /** Encrypted at rest or not, and why not: doctor, `baton encrypt --status` and the UI footer say it. */
  atRest: AtRestStatus = { state: 'off', reason: 'the store is not open yet' };
  private readonly logs = new Map<string, Promise<{ log: MessageLog; report: RecoveryReport }>>();
  private readonly docCache = new Map<string, { stamp: string; loaded: LoadedDoc }>();
  private readonly flushTimers = new Map<string, NodeJS.Timeout>();
  private readonly flushes = new Set<Promise<void>>();
  /** events.jsonl and each session's handoffs.jsonl (kept so the directory is fsynced once). */
  private readonly lineLogs = new Map<string, LineLog>();
  /** The open's sweep of dead writers' temp files (cleanTemps, never rejects): close() waits for it. */
  private sweep: Promise<void> = Promise.resolve();
  readOnly = false;
  readOnlyReason = '';
  private checkedDirs: { key: string; ids: Set<string> } | undefined;

  constructor(
    readonly root: string,
    private readonly options: OpenStoreOptions = {},
  ) {
    this.fs = options.fs ?? nodeDurableFs;
    this.now = options.now ?? (() => new Date());
    this.index = new IndexFile(this.fs, root);
  }

  async init(): Promise<void> {
    if (this.options.forReading) return this.initForReading(this.options.forReading.reason);
    const top = [SESSIONS_DIR, ARCHIVED_DIR, RECEIPTS_DIR];
    await checkOwnedPath(this.fs, this.root, 'dir');
    try {
      for (const d of ['', ...top]) await this.fs.mkdir(join(this.root, d), DIR_MODE);
    } catch (error) {
      throw fromFsError(error, this.root, 'creating the store directories');
    }
    // The index snapshot comes off the disk while the key is read from the keychain (a D-Bus round
    // trip of several ms); it is used only if unchanged since (read-ahead-fs.ts).
    const ahead = readAheadFs(this.fs, [join(this.root, INDEX_FILE)]);
    // Before anything else is read or written: a store whose key cannot be read is refused here.
    const resolved = await resolveAtRest(this.fs, this.root, this.options.keyStore === undefined ? osKeyStore() : this.options.keyStore);
    this.atRest = resolved.status;
    this.fs = resolved.cipher ? encryptingFs(ahead, resolved.cipher) : ahead;
    this.index = new IndexFile(this.fs, this.root);
    // Approvals, tasks, the search index and the importers' cache under this root follow the store.
    registerStoreFs(this.root, resolved.cipher ? this.fs : undefined);
    await checkStoreTree(this.fs, this.root, top, [INDEX_FILE, INDEX_JOURNAL, EVENTS_FILE].filter((f) => this.fs.existsSync(join(this.root, f))));
    // Only the version is needed here: the rows (a journal of up to 512 KiB, an index.json of
    // megabytes) are read when something lists them, not by every process that opens the store.
    if (await this.index.isNewer()) {
      const { version } = await this.index.read();
      this.readOnly = true;
      this.readOnlyReason = `This Baton store (${this.root}) was written by a newer Baton: store schema version ${version}, this Baton understands ${SESSION_SCHEMA_VERSION}. Upgrade Baton to change it; reading still works.`;
      return;
    }
    // What dead writers left (temp files, staging directories) is swept beside the caller's work,
    // not before it: the sweep lists sessions/ and receipts/, which grow with every session and
    // every handoff received (10,000 of each: 20–40 ms of readdir on every open). Nothing waits for
    // it (every temp name is its writer's alone); close() does.
    this.sweep = Promise.all(['', SESSIONS_DIR, RECEIPTS_DIR].map((d) => cleanTemps(this.fs, join(this.root, d)))).then(() => undefined);
    // A delete that a crash interrupted after its marker is finished now: the session is gone, not half there.
    await finishPendingDeletes(this.deleteSteps());
  }

  /**
   * The reader's init (OpenStoreOptions.forReading): the same tree and key checks as init(), in
   * the same order, without what only a writer needs. Read-only from the start, so list() never
   * rebuilds or appends to the index (a torn index.json is read around, from the session files,
   * as for a store written by a newer Baton) and every write throws READ_ONLY.
   */
  private async initForReading(reason: string): Promise<void> {
    this.readOnly = true;
    this.readOnlyReason = reason;
    // The tree first: a linked or foreign root is refused before anything under it is read.
    await checkStoreTree(this.fs, this.root, [SESSIONS_DIR, ARCHIVED_DIR, RECEIPTS_DIR], [INDEX_FILE, INDEX_JOURNAL, EVENTS_FILE].filter((f) => this.fs.existsSync(join(this.root, f))));
    const resolved = await resolveAtRest(this.fs, this.root, this.options.keyStore === undefined ? osKeyStore() : this.options.keyStore);
    this.atRest = resolved.status;
    if (resolved.cipher) this.fs = encryptingFs(this.fs, resolved.cipher);
    this.index = new IndexFile(this.fs, this.root);
    registerStoreFs(this.root, resolved.cipher ? this.fs : undefined);
  }

  private deleteSteps(): DeleteSteps {
    return { fs: this.fs, root: this.root, forgetIndexRows: (ids) => this.index.remove(ids) };
  }

  async delete(id: string): Promise<void> {
    this.writable();
    // An open log or a pending metadata flush would write into the directory being removed.
    clearTimeout(this.flushTimers.get(id));
    this.flushTimers.delete(id);
    const open = this.logs.get(id);
    this.logs.delete(id);
    await (await open?.catch(() => undefined))?.log.close();
    await deleteSessionFiles(this.deleteSteps(), id);
    this.docCache.delete(liveDir(this.root, id));
    this.docCache.delete(archivedDir(this.root, id));
    this.checkedDirs = undefined;
  }

  /** The file system the store writes through: encrypting when the store is encrypted at rest. */
  get fileSystem(): DurableFs {
    return this.fs;
  }

  private writable(): void {
    if (this.readOnly) throw new StoreError('READ_ONLY', this.readOnlyReason, this.root);
  }

  sessionDir(id: string): string {
    const live = liveDir(this.root, id);
    const archived = archivedDir(this.root, id);
    return !this.fs.existsSync(live) && this.fs.existsSync(archived) ? archived : live;
  }

  private async locate(id: string): Promise<Located> {
    const live = liveDir(this.root, id);
    if (await this.exists(join(live, SESSION_FILE))) return { dir: live, archived: false };
    const archived = archivedDir(this.root, id);
    if (await this.exists(join(archived, SESSION_FILE))) return { dir: archived, archived: true };
    throw new StoreError('NOT_FOUND', `No session ${id} in ${this.root}.`, live);
  }

  private async exists(path: string): Promise<boolean> {
    try {
      await this.fs.stat(path);
      return true;
    } catch (error) {
      if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') return false;
      throw fromFsError(error, path, 'looking up a session');
    }
  }

  /** session.json as on disk now; re-read only when its inode/size/mtime changed or a newer revision was published. */
  private async load(loc: Located): Promise<LoadedDoc> {
    const stamp = await docStamp(this.fs, loc.dir);
    const cached = this.docCache.get(loc.dir);
    // existsSync: a missing marker is the common case, and a rejected stat costs an Error per call.
    if (stamp && cached?.stamp === stamp && !this.fs.existsSync(revisionMarker(loc.dir, cached.loaded.doc.revision + 1))) return cached.loaded;
    const loaded = await readSessionDoc(this.fs, loc.dir);
    if (!loaded) throw new StoreError('NOT_FOUND', `Session ${loc.dir} has no session.json.`, loc.dir);
    if (loaded.restored) return this.restore(loc, loaded);
    loaded.doc.archived = loc.archived;
    if (stamp) this.docCache.set(loc.dir, { stamp, loaded });
    return loaded;
  }

  /**
   * session.json was unreadable and `loaded` is its newest readable revision: the message count is
   * taken from the log, a note says what happened, the unreadable bytes are kept beside it, and
   * (when the store is writable) the restored document is published as the next revision.
   */
  private async restore(loc: Located, loaded: LoadedDoc): Promise<LoadedDoc> {
    const { from, revision, reason } = loaded.restored!;
    const now = this.now().toISOString();
    const { records } = await readRecords(this.fs, loc.dir);
    const keptAs = `session.unreadable-r${revision + 1}.json`;
    const note = `${now}: session.json was unreadable (${reason}); restored from ${from} (revision ${revision}) and the message log (${records.length} messages). The unreadable file was kept as ${keptAs}; changes made after revision ${revision} other than messages may be missing.`;
    const doc: SessionDoc = { ...loaded.doc, archived: loc.archived, messageCount: records.length, notes: [...(loaded.doc.notes ?? []), note] };
    if (this.readOnly || loaded.newer) return { ...loaded, doc };
    try {
      await restoreDocFiles(this.fs, loc.dir, revision, keptAs, isSessionDoc);
      const committed = await commitSessionDoc(this.fs, loc.dir, revision, { ...doc, updatedAt: now });
      await this.index.append(rowOf(indexRowOf(committed), committed.revision));
      return { doc: committed, newer: false, fromVersion: committed.schemaVersion };
    } catch {
      // Another process restored it first, or the disk refuses: serve the restored document unsaved.
      return { ...loaded, doc };
    }
  }

  async getSession(id: string): Promise<SessionDoc> {
    return structuredClone((await this.load(await this.locate(id))).doc);
  }

  async createSession(init: NewSession, input: MessageInput[] = [], artifacts: readonly NewArtifact[] = []): Promise<SessionDoc> {
    return (await this.createFromArray(init, input, artifacts)).doc;
  }

  async landSession(init: NewSession, input: MessageInput[] = [], artifacts: readonly NewArtifact[] = []): Promise<LandedLog> {
    const { doc, records, writer } = await this.createFromArray(init, input, artifacts);
    const log = await this.readBack(doc.id, writer);
    return { session: doc, records, log };
  }

  async landSessionStream(init: NewSession, batches: AsyncIterable<LandingBatch>, options: LandingStreamOptions = {}): Promise<LandedStream> {
    const id = checkId(init.id ?? newId('s-'));
    const folder = new DuplicateFolder(id, options.repeatedIds ?? (() => false));
    const { doc, writer } = await this.create({ ...init, id }, batches, folder, [], options.onRecord, options.lateExtra, options.lateDirectory);
    const log = await this.readBack(doc.id, writer);
    return { session: doc, log, count: writer.count };
  }

  /** An input held whole: folded before anything is written (a refused input leaves no staging behind), then landed as one batch. */
  private async createFromArray(init: NewSession, input: MessageInput[], artifacts: readonly NewArtifact[]): Promise<{ doc: SessionDoc; records: StoredRecord[]; writer: LandingWriter }> {
    this.writable();
    const id = checkId(init.id ?? newId('s-'));
    const { messages, notes } = foldDuplicateIds(input, id);
    const records: StoredRecord[] = [];
    const { doc, writer } = await this.create({ ...init, id }, oneBatch({ messages, artifacts }), null, notes, (record) => records.push(record));
    return { doc, records, writer };
  }

  /** The landing's read-back (landing-read-back.ts): the log on disk against what the writer wrote, before anything is offered. */
  private async readBack(id: string, written: WrittenLog): Promise<LogBytes> {
    return readBackLanding(this.fs, join((await this.locate(id)).dir, MESSAGES_FILE), id, written);
  }

  async hashStoredLog(id: string, upTo: number): Promise<LogBytes & { lines: number }> {
    const path = join((await this.locate(id)).dir, MESSAGES_FILE);
    try {
      const file = await this.fs.open(path, 'r');
      try {
        const size = (await file.stat()).size;
        let lines = 0;
        // No opener: the bytes as stored are hashed and their lines counted, nothing is decrypted.
        const read = await streamLog(file, Math.min(size, upTo), () => {
          lines++;
        });
        return { ...read, lines };
      } finally {
        await file.close();
      }
    } catch (error) {
      throw fromFsError(error, path, 'reading the message log');
    }
  }

  async streamMessages(id: string, onLine: (line: Buffer, start: number) => void | Promise<void>, upTo?: number): Promise<LogBytes> {
    return this.streamFile(join((await this.locate(id)).dir, MESSAGES_FILE), onLine, upTo);
  }

  /** Record lines as stored in `dir` → as written (at rest, issue 17: the store's per-record opener goes here). */
  private lineOpener(dir: string): LineOpener {
    return recordCodecFor(this.fs, dir).openLine;
  }

  /**
   * Streams messages.jsonl; `onLine` gets each record line opened (an empty line when it cannot be).
   * The hash and byte count cover the record lines as written (plaintext, each with its '\n'):
   * for a plaintext log those are the bytes on disk, hashed a chunk at a time; for a log encrypted
   * at rest, the opened lines, so a sender's figures hold at a receiver whose store seals the
   * same records under another key (relay, ssh, bundles). `upTo` counts the same bytes.
   */
  private async streamFile(path: string, onLine: (line: Buffer, start: number) => void | Promise<void>, upTo?: number): Promise<LogBytes> {
    const codec = recordCodecFor(this.fs, dirname(path));
    try {
      const file = await this.fs.open(path, 'r');
      try {
        const size = (await file.stat()).size;
        if (codec === plainRecordCodec) return await streamLog(file, Math.min(size, upTo ?? size), (line, start) => onLine(line, start));
        const hash = createHash('sha256');
        let bytes = 0;
        let done = false;
        const stored = await streamLog(file, size, (line, start) => {
          if (done) return;
          const plain = codec.openLine(line) ?? EMPTY_LINE;
          if (upTo !== undefined && bytes + plain.length + 1 > upTo) {
            done = true;
            return;
          }
          hash.update(plain).update(NEWLINE);
          bytes += plain.length + 1;
          return onLine(plain, start);
        });
        // streamLog hashed the stored bytes on the way (no second read): the whole file only.
        return { bytes, sha256: hash.digest('hex'), ...(upTo === undefined ? { stored: { bytes: stored.bytes, sha256: stored.sha256 } } : {}) };
      } finally {
        await file.close();
      }
    } catch (error) {
      throw fromFsError(error, path, 'reading the message log');
    }
  }

  /**
   * Builds the session in a staging directory from its messages, a batch at a time, and renames it
   * into place: a session exists completely or not at all. `folder` folds repeated ids as the
   * messages arrive (a streamed input); `notes` are those of an input folded beforehand.
   */
  private async create(
    init: NewSession & { id: string },
    batches: AsyncIterable<LandingBatch>,
    folder: DuplicateFolder | null,
    notes: string[],
    onRecord?: (record: StoredRecord) => void,
    lateExtra?: () => Record<string, unknown>,
    lateDirectory?: () => Pick<NewSession, 'cwd' | 'gitRoot' | 'branch'>,
  ): Promise<{ doc: SessionDoc; writer: LandingWriter }> {
    this.writable();
    const id = init.id;
    if (init.parentId) checkId(init.parentId, 'parent session id');
    const target = liveDir(this.root, id);
    if ((await this.exists(target)) || (await this.exists(archivedDir(this.root, id)))) throw new StoreError('CONFLICT', `Session ${id} already exists.`, target);
    const now = this.now().toISOString();
    const docOf = (messageCount: number, folded: string[], late: Record<string, unknown> = {}, directory: Pick<NewSession, 'cwd' | 'gitRoot' | 'branch'> = init) => {
      const parsed = safeParseSessionDoc({
        ...init.extra,
        ...late,
        schemaVersion: SESSION_SCHEMA_VERSION,
        id,
        parentId: init.parentId ?? null,
        createdAt: now,
        updatedAt: now,
        cwd: directory.cwd,
        gitRoot: directory.gitRoot,
        branch: directory.branch,
        title: init.title,
        source: init.source,
        model: init.model ?? null,
        permission: init.permission ?? null,
        holder: { who: init.holder, epoch: 1 },
        revision: 0,
        messageCount,
        archived: false,
        ...(folded.length > 0 ? { notes: [...((init.extra?.notes as string[] | undefined) ?? []), ...folded.map((n) => `${now}: ${n}`)] } : {}),
      });
      if (!parsed.success) throw new StoreError('BAD_REQUEST', `The new session ${id} is not valid: ${describeIssues(parsed.error.issues)}.`);
      return parsed.data;
    };
    // Checked before anything is written: a refused document leaves no session behind. The count
    // and the fold's notes are known once the last message is written.
    docOf(0, notes);
    const staging = join(this.root, SESSIONS_DIR, creatingName(id, randomBytes(4).toString('hex')));
    let doc: SessionDoc;
    let writer: LandingWriter;
    try {
      await this.fs.mkdir(join(staging, ARTIFACTS_DIR), DIR_MODE);
      const log = await this.fs.open(join(staging, MESSAGES_FILE), 'wx', FILE_MODE);
      try {
        // Written in chunks of about LANDING_CHUNK_BYTES: memory stays bounded by the chunk and the batch, not the session.
        writer = new LandingWriter(this.fs, staging, log, recordCodecFor(this.fs, staging), now, folder, onRecord);
        for await (const batch of fromCaller(batches)) await writer.add(batch);
        const landed = writer;
        const counted = docOf(landed.count, [...notes, ...landed.notes()], lateExtra?.(), lateDirectory?.());
        doc = counted;
        // The document is known once the last batch went through: it is written and synced beside
        // the log's and the artifacts' fsyncs (one journal commit, not two in a row). Nothing in the
        // staging directory is visible before the rename below, which waits for both.
        await settleBoth(landed.finish(), (async () => {
          // The first writer to open the log (the receiver taking the baton) starts from here, not from
          // a full scan; below the interval, as for appends (message-log.ts), recovery scans it all.
          const checkpoint = landed.checkpoint();
          if (checkpoint && landed.bytes >= CHECKPOINT_INTERVAL_BYTES) await writeCheckpoint(this.fs, staging, checkpoint);
          await commitSessionDoc(this.fs, staging, 0, counted, true);
        })());
      } finally {
        await log.close();
      }
      await this.fs.rename(staging, target);
      await this.fs.fsyncDir(join(this.root, SESSIONS_DIR));
    } catch (error) {
      // A streamed input refused part-way (two messages with one id, a file that changed) leaves no staging behind.
      if (error instanceof CallerInputFailure || (error instanceof StoreError && error.code === 'BAD_REQUEST')) await this.fs.removeTree(staging).catch(() => undefined);
      // The caller's input failed (not the disk): its own error, as it was thrown.
      if (error instanceof CallerInputFailure) throw error.cause;
      if (['EEXIST', 'ENOTEMPTY'].includes(errnoOf(error) ?? '')) throw new StoreError('CONFLICT', `Session ${id} already exists.`, target);
      throw fromFsError(error, target, 'creating the session');
    }
    await this.index.append(rowOf(indexRowOf(doc), doc.revision));
    return { doc, writer };
  }

  private openLog(id: string, loc: Located): Promise<{ log: MessageLog; report: RecoveryReport }> {
    let pending = this.logs.get(id);
    if (!pending) {
      pending = (async () => {
        await cleanTemps(this.fs, loc.dir);
        const opened = await MessageLog.open(loc.dir, {
          fs: this.fs,
          now: this.now,
          // Stat-validated cache of session.json at the known location; look again only if it moved (archive).
          currentEpoch: async () => (await this.load(loc).catch(async () => this.load(await this.locate(id)))).doc.holder.epoch,
          onCommit: () => this.scheduleFlush(id),
        });
        await this.afterRecovery(id, opened.log, opened.report);
        return opened;
      })();
      pending.catch(() => this.logs.delete(id));
      this.logs.set(id, pending);
    }
    return pending;
  }

  /** Records quarantined damage in session.json and brings messageCount back in line with the log. */
  private async afterRecovery(id: string, log: MessageLog, report: RecoveryReport): Promise<void> {
    const detectedAt = this.now().toISOString();
    await this.mutate(id, (doc) => {
      const damaged = withDamage(doc, report.quarantined, detectedAt);
      if (!damaged && doc.messageCount === log.count) return undefined;
      return { ...doc, damaged: damaged ?? doc.damaged, messageCount: log.count };
    });
  }

  /**
   * Damage a read came across is quarantined and recorded at once, so later reads that never
   * scan that part (a tail, a page) still report it. Best effort: a read never fails because the
   * record could not be written (read-only store, full disk); the next read tries again.
   */
  private async recordReadDamage(id: string, loc: Located, ranges: ByteRange[]): Promise<void> {
    if (this.readOnly) return;
    try {
      const fresh = unrecorded((await this.load(loc)).doc, ranges);
      if (fresh.length === 0) return;
      const path = join(loc.dir, MESSAGES_FILE);
      const file = await this.fs.open(path, 'r');
      const quarantined: QuarantinedRange[] = [];
      try {
        for (const range of fresh) quarantined.push(await copyToSideFile(this.fs, loc.dir, range, (length, position) => file.read(length, position)));
      } finally {
        await file.close();
      }
      const detectedAt = this.now().toISOString();
      await this.mutate(id, (doc) => {
        const damaged = withDamage(doc, quarantined, detectedAt);
        return damaged ? { ...doc, damaged } : undefined;
      });
    } catch {
      /* reported by the next read that can write it */
    }
  }

  /**
   * Read-modify-write with compare-and-swap retries: the one retry loop of the code base. `change`
   * gets a fresh copy of the current document on every attempt (so it must not depend on an
   * earlier attempt) and returns undefined when nothing needs writing.
   */
  async mutate(id: string, change: (doc: SessionDoc) => SessionDoc | undefined | Promise<SessionDoc | undefined>): Promise<SessionDoc> {
    this.writable();
    for (let attempt = 0; ; attempt++) {
      const loc = await this.locate(id);
      const loaded = await this.load(loc);
      if (loaded.newer) throw this.newerDoc(loc.dir, loaded.fromVersion);
      const next = await change(structuredClone(loaded.doc));
      if (!next) return structuredClone(loaded.doc);
      const parsed = safeParseSessionDoc({ ...next, id, schemaVersion: loaded.doc.schemaVersion });
      if (!parsed.success) throw new StoreError('BAD_REQUEST', `The updated session ${id} is not valid: ${describeIssues(parsed.error.issues)}.`, loc.dir);
      try {
        return await this.commit(loc, loaded.doc.revision, parsed.data);
      } catch (error) {
        if (!(error instanceof StoreError && error.code === 'CONFLICT') || attempt >= MUTATE_CAS_RETRIES) throw error;
      }
    }
  }

  private async commit(loc: Located, expected: number, next: SessionDoc): Promise<SessionDoc> {
    const doc = await commitSessionDoc(this.fs, loc.dir, expected, { ...next, archived: loc.archived, updatedAt: this.now().toISOString() });
    await this.index.append(rowOf(indexRowOf(doc), doc.revision));
    return doc;
  }

  private newerDoc(path: string, version: number): StoreError {
    return new StoreError('READ_ONLY', `${path} was written by a newer Baton (session schema version ${version}; this Baton understands ${SESSION_SCHEMA_VERSION}). Upgrade Baton to change it.`, path);
  }

  async append(id: string, epoch: number, messages: MessageInput[]): Promise<MessageRecord[]> {
    this.writable();
    // Log already open here: its commit checks the epoch once per group, no need to look twice.
    const open = this.logs.get(id);
    if (open) return (await open).log.append(epoch, messages);
    const loc = await this.locate(id);
    const loaded = await this.load(loc);
    if (loaded.newer) throw this.newerDoc(loc.dir, loaded.fromVersion);
    const current = loaded.doc.holder.epoch;
    if (epoch < current) throw new StoreError('STALE_HOLDER', `Write refused: epoch ${epoch} no longer holds session ${id} (${loaded.doc.holder.who} holds epoch ${current}). Claim it again before writing.`, loc.dir);
    if (epoch > current) throw new StoreError('BAD_REQUEST', `Epoch ${epoch} was never issued for session ${id} (current is ${current}).`, loc.dir);
    const { log } = await this.openLog(id, loc);
    return log.append(epoch, messages);
  }

  private scheduleFlush(id: string): void {
    if (this.flushTimers.has(id)) return;
    const timer = setTimeout(() => {
      this.flushTimers.delete(id);
      const run = this.flushMetadata(id).catch(() => undefined);
      this.flushes.add(run);
      void run.finally(() => this.flushes.delete(run));
    }, this.options.metadataFlushMs ?? METADATA_FLUSH_MS);
    this.flushTimers.set(id, timer);
  }

  /** messageCount/updatedAt are derived from the log: written back lazily, repaired on recovery. */
  private async flushMetadata(id: string): Promise<void> {
    const opened = await this.logs.get(id);
    if (!opened) return;
    const count = opened.log.count;
    await this.mutate(id, (doc) => (doc.messageCount >= count ? undefined : { ...doc, messageCount: count }));
  }

  async readMessages(id: string, options?: ReadMessagesOptions): Promise<MessageRecord[]> {
    const loc = await this.locate(id);
    const { records, midDamage } = await readRecords(this.fs, loc.dir, options);
    if (midDamage.length > 0) await this.recordReadDamage(id, loc, midDamage);
    return records;
  }

  async forEachMessageLine(id: string, onRecord: (keys: RecordKeys, line: Buffer) => void | Promise<void>, onChunk?: (chunk: Buffer) => void): Promise<number> {
    const loc = await this.locate(id);
    const path = join(loc.dir, MESSAGES_FILE);
    let result: Awaited<ReturnType<typeof streamRecords>>;
    try {
      const file = await this.fs.open(path, 'r');
      try {
        result = await streamRecords(file, (await file.stat()).size, decodeRecordKeys, onRecord, this.lineOpener(loc.dir), onChunk);
      } finally {
        await file.close();
      }
    } catch (error) {
      throw fromFsError(error, path, 'reading the message log');
    }
    if (result.midDamage.length > 0) await this.recordReadDamage(id, loc, result.midDamage);
    return result.count;
  }

  /** Opens the session's log as a writer would: torn tail truncated, damage quarantined. */
  async recover(id: string): Promise<RecoveryReport> {
    this.writable();
    return (await this.openLog(id, await this.locate(id))).report;
  }

  async update(id: string, expectedRevision: number, mutate: (doc: SessionDoc) => SessionDoc): Promise<SessionDoc> {
    this.writable();
    const loc = await this.locate(id);
    const loaded = await this.load(loc);
    if (loaded.newer) throw this.newerDoc(loc.dir, loaded.fromVersion);
    if (loaded.doc.revision !== expectedRevision) throw new StoreError('CONFLICT', `Session ${id} is at revision ${loaded.doc.revision}, not ${expectedRevision}; read it again and retry.`, loc.dir);
    const next = mutate(structuredClone(loaded.doc));
    const parsed = safeParseSessionDoc({ ...next, id, schemaVersion: loaded.doc.schemaVersion });
    if (!parsed.success) throw new StoreError('BAD_REQUEST', `The updated session ${id} is not valid: ${describeIssues(parsed.error.issues)}.`, loc.dir);
    return this.commit(loc, expectedRevision, parsed.data);
  }

  async claim(id: string, who: string): Promise<SessionDoc> {
    this.writable();
    const doc = await this.mutate(id, (d) => ({ ...d, holder: { ...d.holder, who, epoch: d.holder.epoch + 1 } }));
    // The new holder repairs the log now that older writers are fenced out.
    await this.openLog(id, await this.locate(id));
    return doc;
  }

  async fork(id: string, uptoSeq: number, who: string): Promise<SessionDoc> {
    this.writable();
    const source = await this.getSession(id);
    const records = (await this.readMessages(id)).filter((r) => r.seq <= uptoSeq);
    const inputs = records.map(({ seq: _s, crc: _c, epoch: _e, ...rest }) => rest as MessageInput);
    const { schemaVersion: _v, id: _i, parentId: _p, createdAt: _c, updatedAt: _u, holder: _h, revision: _r, messageCount: _m, archived: _a, damaged: _d, ...extra } = source;
    return this.createSession(
      { parentId: id, cwd: source.cwd, gitRoot: source.gitRoot, branch: source.branch, title: source.title, source: source.source, model: source.model, permission: source.permission, holder: who, extra },
      inputs,
      // The fork's messages refer to the same artifacts (full tool outputs, the patch) by hash.
      await this.contentArtifacts(id),
    );
  }

  /** Every content-addressed artifact of a session, checked against its hash. */
  private async contentArtifacts(id: string): Promise<NewArtifact[]> {
    const dir = join((await this.locate(id)).dir, ARTIFACTS_DIR);
    const names = await this.fs.readdir(dir).catch((error: unknown) => {
      if (errnoOf(error) === 'ENOENT') return [] as string[];
      throw fromFsError(error, dir, 'listing artifacts');
    });
    const artifacts: NewArtifact[] = [];
    for (const name of names.sort()) {
      const ref = `${ARTIFACTS_DIR}/${name}`;
      if (!ARTIFACT_REF.test(ref)) continue;
      const extension = name.slice(65) || undefined;
      artifacts.push({ bytes: await this.readArtifact(id, ref), ...(extension ? { extension } : {}) });
    }
    return artifacts;
  }

  async archive(id: string): Promise<void> {
    this.writable();
    const loc = await this.locate(id);
    if (!loc.archived) {
      const to = archivedDir(this.root, id);
      try {
        await this.fs.rename(loc.dir, to);
        await this.fs.fsyncDir(join(this.root, SESSIONS_DIR));
        await this.fs.fsyncDir(join(this.root, ARCHIVED_DIR));
      } catch (error) {
        throw fromFsError(error, loc.dir, 'archiving the session');
      }
      this.docCache.delete(loc.dir);
    }
    await this.mutate(id, (doc) => (doc.archived ? undefined : { ...doc, archived: true }));
  }

  async list(options: { includeArchived?: boolean } = {}): Promise<IndexRow[]> {
    const rows = await this.indexRows();
    const out = [...rows.values()].filter((r) => options.includeArchived || !r.archived).map(({ revision: _r, ...row }) => row);
    return out.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
  }

  /**
   * The index, checked against the session directories (two readdirs, no session file read):
   * a session missing from it is read from its session.json and added; a moved one is fixed.
   */
  async indexRows(): Promise<Map<string, Row>> {
    const state = await this.index.read();
    // The directories change (mtime) whenever a session is created, archived or removed: when neither
    // did since the last check found index and directories in agreement, skip the two readdirs.
    const dirsKey = (await Promise.all([SESSIONS_DIR, ARCHIVED_DIR].map((d) => this.fs.stat(join(this.root, d)).then((st) => `${st.ino}:${st.mtimeMs}`, () => '-')))).join('|');
    if (state.snapshotOk && this.checkedDirs?.key === dirsKey && [...this.checkedDirs.ids].every((id) => state.rows.has(id))) {
      for (const id of state.rows.keys()) if (!this.checkedDirs.ids.has(id)) state.rows.delete(id);
      return state.rows;
    }
    const live = await this.listIds(SESSIONS_DIR);
    const archived = await this.listIds(ARCHIVED_DIR);
    // No session anywhere (a new data directory): nothing to rebuild, so nothing is written. A new
    // host's first list wrote an empty index.json with its fsyncs, and on a fresh data directory that
    // write waited 400-580 ms behind the cold scan's file operations, on the way to the UI's first
    // rows (bench/README.md, twelfth sitting). The first session written creates the index.
    if (!state.snapshotOk && live.size === 0 && archived.size === 0 && state.rows.size === 0) return new Map();
    if (!state.snapshotOk && !this.readOnly) return this.rebuildIndex(live, archived);
    const rows = state.rows;
    for (const [ids, isArchived] of [[live, false], [archived, true]] as const) {
      for (const id of ids) {
        const row = rows.get(id);
        if (row && row.archived === isArchived) continue;
        const loaded = await readSessionDoc(this.fs, join(this.root, isArchived ? ARCHIVED_DIR : SESSIONS_DIR, id)).catch(() => undefined);
        if (!loaded) continue;
        const fixed = rowOf({ ...indexRowOf(loaded.doc), archived: isArchived }, loaded.doc.revision);
        rows.set(id, fixed);
        if (!this.readOnly) await this.index.append(fixed).catch(() => undefined);
      }
    }
    for (const id of rows.keys()) if (!live.has(id) && !archived.has(id)) rows.delete(id);
    this.checkedDirs = { key: dirsKey, ids: new Set(rows.keys()) };
    return rows;
  }

  /** Rebuilds index.json from every session.json (index missing or corrupt). */
  async rebuildIndex(live?: Set<string>, archived?: Set<string>): Promise<Map<string, Row>> {
    const rows = new Map<string, Row>();
    for (const [ids, isArchived] of [[live ?? (await this.listIds(SESSIONS_DIR)), false], [archived ?? (await this.listIds(ARCHIVED_DIR)), true]] as const) {
      for (const id of ids) {
        const loaded = await readSessionDoc(this.fs, join(this.root, isArchived ? ARCHIVED_DIR : SESSIONS_DIR, id)).catch(() => undefined);
        if (loaded) rows.set(id, rowOf({ ...indexRowOf(loaded.doc), archived: isArchived }, loaded.doc.revision));
      }
    }
    if (!this.readOnly) await this.index.replace([...rows.values()]);
    return rows;
  }

  private async listIds(sub: string): Promise<Set<string>> {
    try {
      return new Set((await this.fs.readdir(join(this.root, sub))).filter((n) => !n.startsWith('.')));
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return new Set();
      throw fromFsError(error, join(this.root, sub), 'listing sessions');
    }
  }

  async putArtifact(id: string, bytes: Uint8Array, extension?: string): Promise<{ sha256: string; ref: string }> {
    this.writable();
    if (extension !== undefined && !/^[A-Za-z0-9]{1,16}$/.test(extension)) throw new StoreError('BAD_REQUEST', `Invalid artifact extension ${JSON.stringify(extension)}.`);
    const loc = await this.locate(id);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const ref = `${ARTIFACTS_DIR}/${artifactName(sha256, extension)}`;
    const path = join(loc.dir, ref);
    await this.fs.mkdir(join(loc.dir, ARTIFACTS_DIR), DIR_MODE);
    if (!(await this.exists(path))) await createFileAtomic(path, bytes, { fs: this.fs }).catch((error: unknown) => {
      throw fromFsError(error, path, 'saving an artifact');
    });
    return { sha256, ref };
  }

  async putNamedArtifact(id: string, name: string, bytes: Uint8Array): Promise<{ sha256: string; ref: string }> {
    this.writable();
    namedArtifactName(name);
    const loc = await this.locate(id);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const ref = `${ARTIFACTS_DIR}/${name}`;
    const path = join(loc.dir, ref);
    await this.fs.mkdir(join(loc.dir, ARTIFACTS_DIR), DIR_MODE);
    const created = await createFileAtomic(path, bytes, { fs: this.fs }).catch((error: unknown) => {
      throw fromFsError(error, path, 'saving an artifact');
    });
    if (!created) {
      // Written before (a retried handoff): the same bytes are the same artifact; other bytes never replace it.
      const existing = await this.fs.readFile(path).catch((error: unknown) => {
        throw fromFsError(error, path, 'reading an artifact');
      });
      if (createHash('sha256').update(existing).digest('hex') !== sha256) throw new StoreError('CONFLICT', `Artifact ${ref} already exists with other content.`, path);
    }
    return { sha256, ref };
  }

  async readArtifact(id: string, ref: string, expectedSha256?: string): Promise<Uint8Array> {
    const named = ref.startsWith(`${ARTIFACTS_DIR}/`) && NAMED_ARTIFACT.test(ref.slice(ARTIFACTS_DIR.length + 1));
    if (!ARTIFACT_REF.test(ref) && !named) throw new StoreError('BAD_REQUEST', `Invalid artifact reference ${JSON.stringify(ref)}.`);
    const path = join((await this.locate(id)).dir, ref);
    const bytes = await this.fs.readFile(path).catch((error: unknown) => {
      throw fromFsError(error, path, 'reading an artifact');
    });
    const sha = createHash('sha256').update(bytes).digest('hex');
    const expected = expectedSha256 ?? (named ? undefined : ref.slice(ARTIFACTS_DIR.length + 1, ARTIFACTS_DIR.length + 65));
    if (expected !== undefined && sha !== expected) throw new StoreError('IO_ERROR', `Artifact ${path} does not match its hash; it was changed on disk.`, path);
    return bytes;
  }

  async recordHandoff(id: string, manifest: Record<string, unknown>): Promise<void> {
    this.writable();
    const loc = await this.locate(id);
    const path = join(loc.dir, HANDOFF_FILE);
    // The latest manifest and the history line are written side by side: the sender's offer waits
    // for this record (a re-offer reuses its handoff id), so for one chain of fsyncs, not two.
    // Nothing reads the history to find a handoff, and a crash between two writes in either order
    // leaves one without the other just as a crash between sequential writes did.
    const [latest, history] = await Promise.allSettled([
      writeFileAtomic(path, `${JSON.stringify(manifest, null, 2)}\n`, { fs: this.fs }).catch((error: unknown) => {
        throw fromFsError(error, path, 'saving the handoff manifest');
      }),
      this.appendLine(join(loc.dir, HANDOFFS_FILE), manifest, 'recording the handoff history'),
    ]);
    if (latest.status === 'rejected') throw latest.reason;
    if (history.status === 'rejected') throw history.reason;
  }

  async getReceipt(handoffId: string): Promise<Receipt | undefined> {
    const path = join(this.root, RECEIPTS_DIR, `${checkId(handoffId, 'handoff id')}.json`);
    try {
      return JSON.parse((await this.fs.readFile(path)).toString('utf8')) as Receipt;
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return undefined;
      throw fromFsError(error, path, 'reading a receipt');
    }
  }

  async putReceipt(receipt: Receipt): Promise<Receipt> {
    this.writable();
    checkId(receipt.sessionId);
    const path = join(this.root, RECEIPTS_DIR, `${checkId(receipt.handoffId, 'handoff id')}.json`);
    const created = await createFileAtomic(path, `${JSON.stringify(receipt)}\n`, { fs: this.fs }).catch((error: unknown) => {
      throw fromFsError(error, path, 'saving a receipt');
    });
    return created ? receipt : ((await this.getReceipt(receipt.handoffId)) ?? receipt);
  }

  async appendEvent(event: Record<string, unknown>): Promise<void> {
    this.writable();
    await this.appendLine(join(this.root, EVENTS_FILE), { at: this.now().toISOString(), ...event }, 'recording an event');
  }

  async readEvents(): Promise<Record<string, unknown>[]> {
    const path = join(this.root, EVENTS_FILE);
    // Damaged lines and a torn last line of a killed writer are skipped.
    const read = await this.lineLog(path).read().catch((error: unknown) => {
      throw fromFsError(error, path, 'reading events');
    });
    return read?.values ?? [];
  }

  private lineLog(path: string): LineLog {
    let log = this.lineLogs.get(path);
    if (!log) this.lineLogs.set(path, (log = new LineLog(path, { fs: this.fs })));
    return log;
  }

  /** One plain JSON line (other tools read these files), torn-tail safe: see LineLog. */
  private async appendLine(path: string, value: Record<string, unknown>, action: string): Promise<void> {
    await this.lineLog(path).append([value]).catch((error: unknown) => {
      throw fromFsError(error, path, action);
    });
  }

  async close(): Promise<void> {
    for (const [id, timer] of this.flushTimers) {
      clearTimeout(timer);
      this.flushTimers.delete(id);
      this.flushes.add(this.flushMetadata(id).catch(() => undefined));
    }
    await Promise.all([...this.flushes, this.sweep]);
    for (const pending of this.logs.values()) {
      const opened = await pending.catch(() => undefined);
      await opened?.log.close();
    }
    this.logs.clear();
  }
}

