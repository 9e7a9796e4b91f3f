import { join } from 'node:path';
import { SESSION_SCHEMA_VERSION, type IndexRow } from '../../shared/session.js';
import type { DurableFs, FileStat } from '../fs/durable-fs.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';
import { canonicalJson, crc32Hex } from './canonical.js';
import { errnoOf, fromFsError } from './errors.js';
import { withFileLock } from './lock.js';
import { cipherOf, openLineFor, sealLineFor } from './at-rest/index.js';

/**
 * index.json is a compacted snapshot of rows; index.journal.jsonl takes one line per session
 * change (O_APPEND, fsynced), so processes never rewrite each other's rows. Readers merge both
 * and keep, per session, the row with the highest session revision. Compaction (journal folded
 * into the snapshot) is the one place that takes a cross-process lock.
 */
export const INDEX_FILE = 'index.json';
export const INDEX_JOURNAL = 'index.journal.jsonl';
export const INDEX_JOURNAL_OLD = 'index.journal.old.jsonl';
export const INDEX_LOCK = 'index.lock';
/** Fold the journal into index.json once it is this large. */
export const INDEX_COMPACT_BYTES = 512 * 1024;
/**
 * The same for an encrypted store: every journal line is opened on its own (one cipher call each,
 * ~30 µs), so a cold read of a long journal costs far more than one of the sealed snapshot.
 */
export const INDEX_COMPACT_BYTES_SEALED = 64 * 1024;

/**
 * Bytes of index.json read to find its schemaVersion without parsing the rows (writeSnapshot puts
 * it first): a store of thousands of sessions has an index.json of megabytes, and every process
 * that opens the store checks the version (a `baton handoff` among them, issue 20).
 */
export const INDEX_VERSION_PROBE_BYTES = 64;
const VERSION_PREFIX = /^\{"schemaVersion":(\d{1,9})[,}]/;

export type Row = IndexRow & { revision: number };

export interface IndexState {
  rows: Map<string, Row>;
  /** False when index.json is missing or unreadable: the caller rebuilds from session.json files. */
  snapshotOk: boolean;
  /** schemaVersion of index.json (the store's version marker). */
  version: number;
}

export function rowOf(row: IndexRow, revision: number): Row {
  return { ...row, revision };
}

function mergeRow(rows: Map<string, Row>, row: Row): void {
  const prev = rows.get(row.id);
  if (!prev || row.revision >= prev.revision) rows.set(row.id, row);
}

/** Parses whole lines; returns how many bytes it consumed (a torn last line is left for later). */
function parseJournal(bytes: Buffer, rows: Map<string, Row>, open: (line: Buffer) => Buffer | undefined): number {
  const end = bytes.lastIndexOf(0x0a) + 1;
  for (let pos = 0; pos < end; ) {
    const nl = bytes.indexOf(0x0a, pos);
    // An encrypted store seals each line; one that fails authentication is skipped like a damaged one.
    const line = nl > pos ? open(bytes.subarray(pos, nl)) : undefined;
    pos = nl + 1;
    if (!line) continue;
    try {
      const { crc, ...row } = JSON.parse(line.toString('utf8')) as Row & { crc: string };
      // The checksum proves the line is whole and what we wrote; the full schema was checked then.
      if (crc !== crc32Hex(canonicalJson(row)) || typeof row.id !== 'string' || typeof row.revision !== 'number') continue;
      mergeRow(rows, row);
    } catch {
      /* a torn or damaged journal line only costs that one update; the session.json is the truth */
    }
  }
  return end;
}

interface Cache {
  key: string;
  journalIno: number;
  journalOffset: number;
  state: IndexState;
}

function statKey(st: FileStat | undefined): string {
  return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : '-';
}

export class IndexFile {
  constructor(
    private readonly fs: DurableFs,
    readonly root: string,
  ) {}

  private path(name: string): string {
    return join(this.root, name);
  }

  private cache: Cache | undefined;

  private readonly openLine = (line: Buffer): Buffer | undefined => openLineFor(this.fs, this.path(INDEX_JOURNAL), line);

  /**
   * The merged index as on disk now. Cached, but validated on every call by stat: a changed
   * index.json or old journal means a full read; a grown journal means reading only its new bytes.
   */
  async read(): Promise<IndexState> {
    const [snap, old, journal] = await Promise.all([INDEX_FILE, INDEX_JOURNAL_OLD, INDEX_JOURNAL].map((n) => this.fs.stat(this.path(n)).catch(() => undefined)));
    const key = `${statKey(snap)}|${statKey(old)}`;
    const c = this.cache;
    if (c && c.key === key && journal && journal.ino === c.journalIno && journal.size >= c.journalOffset) {
      if (journal.size > c.journalOffset) {
        const file = await this.fs.open(this.path(INDEX_JOURNAL), 'r');
        try {
          c.journalOffset += parseJournal(await file.read(journal.size - c.journalOffset, c.journalOffset), c.state.rows, this.openLine);
        } finally {
          await file.close();
        }
      }
      return { ...c.state, rows: new Map(c.state.rows) };
    }
    const state = await this.readFully();
    if (journal) this.cache = { key, journalIno: journal.ino, journalOffset: state.journalBytes, state: { ...state, rows: new Map(state.rows) } };
    return state;
  }

  /**
   * True when the store was written by a newer Baton (index.json's schemaVersion above
   * SESSION_SCHEMA_VERSION), the same answer as `read().version`: a plain index.json whose first
   * bytes name a version this Baton understands settles it; anything else (no such prefix, a
   * newer version, a sealed file) is decided by the full read.
   */
  async isNewer(): Promise<boolean> {
    if (!cipherOf(this.fs)) {
      let head: Buffer | undefined;
      try {
        const file = await this.fs.open(this.path(INDEX_FILE), 'r');
        try {
          head = await file.read(INDEX_VERSION_PROBE_BYTES, 0);
        } finally {
          await file.close();
        }
      } catch (error) {
        // No index.json (a store that never compacted): the full read's version is this Baton's.
        if (errnoOf(error) === 'ENOENT') return false;
        head = undefined; // unreadable: the full read says what it always said
      }
      const match = head && VERSION_PREFIX.exec(head.toString('latin1'));
      if (match && Number(match[1]) <= SESSION_SCHEMA_VERSION) return false;
    }
    return (await this.read()).version > SESSION_SCHEMA_VERSION;
  }

  private async readFully(): Promise<IndexState & { journalBytes: number }> {
    let journalBytes = 0;
    const rows = new Map<string, Row>();
    let snapshotOk = false;
    let version = SESSION_SCHEMA_VERSION;
    try {
      const snap = JSON.parse((await this.fs.readFile(this.path(INDEX_FILE))).toString('utf8')) as { schemaVersion?: unknown; rows?: unknown };
      if (typeof snap.schemaVersion === 'number') version = snap.schemaVersion;
      if (Array.isArray(snap.rows)) {
        for (const r of snap.rows as Row[]) mergeRow(rows, r);
        snapshotOk = typeof snap.schemaVersion === 'number';
      }
    } catch {
      snapshotOk = false;
    }
    for (const name of [INDEX_JOURNAL_OLD, INDEX_JOURNAL]) {
      try {
        const used = parseJournal(await this.fs.readFile(this.path(name)), rows, this.openLine);
        if (name === INDEX_JOURNAL) journalBytes = used;
      } catch (error) {
        if (errnoOf(error) !== 'ENOENT') throw fromFsError(error, this.path(name), 'reading the index journal');
      }
    }
    return { rows, snapshotOk, version, journalBytes };
  }

  /** One row change, durable before it returns. Compacts (best effort) when the journal is large. */
  async append(row: Row): Promise<void> {
    const path = this.path(INDEX_JOURNAL);
    const plain = Buffer.from(JSON.stringify({ ...row, crc: crc32Hex(canonicalJson(row)) }), 'utf8');
    const line = Buffer.concat([sealLineFor(this.fs, path, plain), Buffer.from('\n')]);
    let size = 0;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const file = await this.fs.open(path, 'a', 0o600);
        let ino: number;
        try {
          await file.write(line);
          await file.sync();
          const st = await file.stat();
          ino = st.ino;
          size = st.size;
        } finally {
          await file.close();
        }
        // Compaction may have moved the journal aside while we wrote: then write it again.
        const now = await this.fs.stat(path).catch(() => undefined);
        if (now?.ino === ino) break;
      } catch (error) {
        throw fromFsError(error, path, 'updating the session index');
      }
    }
    if (size >= (cipherOf(this.fs) ? INDEX_COMPACT_BYTES_SEALED : INDEX_COMPACT_BYTES)) await this.compact().catch(() => undefined);
  }

  /** Folds the journal into index.json under the index lock. */
  async compact(): Promise<void> {
    await withFileLock(this.fs, this.path(INDEX_LOCK), async () => {
      const old = this.path(INDEX_JOURNAL_OLD);
      const hasOld = await this.fs.stat(old).then(
        () => true,
        () => false,
      );
      // A previous compaction that stopped after moving the journal aside left `old`: fold it first.
      if (!hasOld) await this.fs.rename(this.path(INDEX_JOURNAL), old).catch(() => undefined);
      const state = await this.read();
      await this.writeSnapshot([...state.rows.values()], state.version);
      await this.fs.unlink(old).catch(() => undefined);
    });
  }

  /** Drops rows (deleted sessions) from index.json and both journals, under the index lock. */
  async remove(ids: readonly string[]): Promise<void> {
    await withFileLock(this.fs, this.path(INDEX_LOCK), async () => {
      const old = this.path(INDEX_JOURNAL_OLD);
      const hasOld = await this.fs.stat(old).then(
        () => true,
        () => false,
      );
      if (!hasOld) await this.fs.rename(this.path(INDEX_JOURNAL), old).catch(() => undefined);
      const state = await this.read();
      for (const id of ids) state.rows.delete(id);
      await this.writeSnapshot([...state.rows.values()], state.version);
      await this.fs.unlink(old).catch(() => undefined);
    });
  }

  /** Replaces the whole index (rebuild from session.json files). */
  async replace(rows: Row[]): Promise<void> {
    await withFileLock(this.fs, this.path(INDEX_LOCK), async () => {
      await this.fs.rename(this.path(INDEX_JOURNAL), this.path(INDEX_JOURNAL_OLD)).catch(() => undefined);
      // Rows journaled while we scanned are newer than what we read: keep them.
      const merged = new Map<string, Row>();
      for (const r of rows) mergeRow(merged, r);
      try {
        parseJournal(await this.fs.readFile(this.path(INDEX_JOURNAL_OLD)), merged, this.openLine);
      } catch {
        /* no journal */
      }
      await this.writeSnapshot([...merged.values()], SESSION_SCHEMA_VERSION);
      await this.fs.unlink(this.path(INDEX_JOURNAL_OLD)).catch(() => undefined);
    });
  }

  private async writeSnapshot(rows: Row[], version: number): Promise<void> {
    const path = this.path(INDEX_FILE);
    await writeFileAtomic(path, JSON.stringify({ schemaVersion: version, rows }), { fs: this.fs }).catch((error: unknown) => {
      throw fromFsError(error, path, 'writing the session index');
    });
  }
}
