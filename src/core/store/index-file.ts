import { join } from 'node:path';
import { IndexRow, SESSION_SCHEMA_VERSION } from '../../shared/session.js';
import type { DurableFs } from '../fs/durable-fs.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';
import { canonicalJson, crc32Hex } from './canonical.js';
import { errnoOf, fromFsError } from './errors.js';
import { withFileLock } from './lock.js';

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

function parseJournal(bytes: Buffer, rows: Map<string, Row>): void {
  for (const line of bytes.toString('utf8').split('\n')) {
    if (!line) continue;
    try {
      const { crc, ...row } = JSON.parse(line) as Row & { crc: string };
      if (crc !== crc32Hex(canonicalJson(row))) continue;
      const parsed = IndexRow.safeParse(row);
      if (parsed.success && typeof row.revision === 'number') mergeRow(rows, { ...parsed.data, revision: row.revision } as Row);
    } catch {
      /* a torn or damaged journal line only costs that one update; the session.json is the truth */
    }
  }
}

export class IndexFile {
  constructor(
    private readonly fs: DurableFs,
    readonly root: string,
  ) {}

  private path(name: string): string {
    return join(this.root, name);
  }

  async read(): Promise<IndexState> {
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
        parseJournal(await this.fs.readFile(this.path(name)), rows);
      } catch (error) {
        if (errnoOf(error) !== 'ENOENT') throw fromFsError(error, this.path(name), 'reading the index journal');
      }
    }
    return { rows, snapshotOk, version };
  }

  /** One row change, durable before it returns. Compacts (best effort) when the journal is large. */
  async append(row: Row): Promise<void> {
    const path = this.path(INDEX_JOURNAL);
    const line = Buffer.from(`${JSON.stringify({ ...row, crc: crc32Hex(canonicalJson(row)) })}\n`, 'utf8');
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
    if (size >= INDEX_COMPACT_BYTES) await this.compact().catch(() => undefined);
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

  /** Replaces the whole index (rebuild from session.json files). */
  async replace(rows: Row[]): Promise<void> {
    await withFileLock(this.fs, this.path(INDEX_LOCK), async () => {
      await this.fs.rename(this.path(INDEX_JOURNAL), this.path(INDEX_JOURNAL_OLD)).catch(() => undefined);
      // Rows journaled while we scanned are newer than what we read: keep them.
      const merged = new Map<string, Row>();
      for (const r of rows) mergeRow(merged, r);
      try {
        parseJournal(await this.fs.readFile(this.path(INDEX_JOURNAL_OLD)), merged);
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
