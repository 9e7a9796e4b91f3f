import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { candidateRow } from '../../shared/agents.js';
import { normalizeCwd, timeOf } from '../../shared/resume-groups.js';
import { SCAN_CACHE_VERSION } from './limits.js';
import type { IndexRow } from '../../shared/session.js';
import { resumeCommandFor, type AgentSource, type ImportedCandidate } from './types.js';
import { openFileFor, sealFileFor } from '../store/at-rest/registry.js';

/**
 * The compact warm cache (docs/importer-candidate-index.md): one entry per scanned session file
 * holding only what a listing needs, so a warm `baton list` never parses the full digest cache
 * (importers-cache.json, 16 MB at 20,000 sessions). Layout:
 *
 *   "BTNCIDX1" · u32 columns length · u32 count · columns JSON · pad to 4 ·
 *   Uint32[count+1] extras offsets · Uint32[count+1] row offsets · extras texts · row texts
 *
 * The columns (path, size, mtime, source, kind, sort time, directory, note, totals) are parsed at
 * once; each entry's candidate JSON and its pre-serialized list row are decoded only when asked
 * for, so `baton list --json` copies rows to stdout without parsing or re-serializing them.
 */
const MAGIC = 'BTNCIDX1';
/** Bumped with the layout; the digest cache version is part of it, so both invalidate together. */
export const CANDIDATE_INDEX_VERSION = 2_000 + SCAN_CACHE_VERSION;
/** A columns section larger than this is damage, not an index (20,000 entries take ~4 MB). */
export const CANDIDATE_INDEX_MAX_BYTES = 512 * 1024 * 1024;

/** Counters a digest contributes to ScanStats, kept so a warm scan reports the same totals. */
export type EntryTotals = [tornLines: number, unknownTypes: number, danglingParents: number, compactions: number];

export interface IndexEntry {
  path: string;
  source: AgentSource;
  size: number;
  mtimeMs: number;
  /** Null: a candidate. A string: why the file is not one (e.g. "no messages"). */
  skip: string | null;
  /** Sort time of the list row (ms; 0 when unknown) and its directory as grouped. */
  at: number;
  cwd: string;
  /** The list row's id (`claude:<id>`), for ordering ties. */
  id: string;
  note: string | null;
  totals: EntryTotals;
  candidate(): ImportedCandidate;
  /** JSON of candidateRow(candidate): what `baton list --json` prints. */
  rowText(): string;
  /** rowText(), as a listing item (candidate-list.ts ListItem). */
  text(): string;
  /** The list row, parsed (for people's output). */
  row(): IndexRow;
}

/** A fresh entry from a scanned candidate (or a skipped file). */
export function entryOf(path: string, source: AgentSource, size: number, mtimeMs: number, candidate: ImportedCandidate | null, skip: string | null, totals: EntryTotals): IndexEntry {
  const row = candidate ? candidateRow(candidate) : null;
  let rowText: string | null = null;
  return {
    path,
    source,
    size,
    mtimeMs,
    skip: candidate ? null : (skip ?? 'skipped'),
    at: row ? timeOf(row.updatedAt) : 0,
    cwd: row ? normalizeCwd(row.cwd) : '',
    id: row?.id ?? '',
    note: candidate?.note ?? null,
    totals,
    candidate: () => {
      if (!candidate) throw new Error(`${path} is not a candidate (${skip})`);
      return candidate;
    },
    rowText: () => (rowText ??= JSON.stringify(row)),
    text: () => (rowText ??= JSON.stringify(row)),
    row: () => {
      if (!row) throw new Error(`${path} is not a candidate (${skip})`);
      return row;
    },
  };
}

/**
 * What the scan that wrote the index saw besides the files (quick-scan.ts trusts the index only
 * when this still holds): every folder discovery listed with its mtime (0: not to be trusted,
 * e.g. changed too close to the scan, or holding links), which tools were scanned, and how many
 * discovered files are not in the index (empty, compressed or unreadable files cost a stat only).
 */
export interface IndexMeta {
  folders: string[];
  folderMtimes: number[];
  scope: AgentSource | 'all';
  unindexed: number;
  /** Discovery's skipped counts by reason (sub-agent logs, links out), reported again by a quick scan. */
  skipped: Record<string, number>;
}

/** An index written without a scan's view of the folders (a resident holder's watched changes): never trusted without one. */
export const NO_INDEX_META: IndexMeta = { folders: [], folderMtimes: [], scope: 'all', unindexed: -1, skipped: {} };

interface Columns extends IndexMeta {
  version: number;
  /** Paths as (folder, name): 20,000 sessions share a handful of folders. */
  dirs: string[];
  dirOf: number[];
  names: string[];
  sources: AgentSource[];
  sizes: number[];
  mtimes: number[];
  skips: Array<string | null>;
  ats: number[];
  cwds: string[];
  ids: string[];
  notes: Array<string | null>;
  totals: number[];
}

export function candidateIndexFileFor(cacheFile: string): string {
  return join(dirname(cacheFile), 'importers-candidates.idx');
}

/** Serializes entries; candidate and row texts of entries read from an older index are copied as bytes. */
export function encodeCandidateIndex(entries: readonly IndexEntry[], meta: IndexMeta = NO_INDEX_META): Buffer {
  const columns: Columns = { version: CANDIDATE_INDEX_VERSION, ...meta, dirs: [], dirOf: [], names: [], sources: [], sizes: [], mtimes: [], skips: [], ats: [], cwds: [], ids: [], notes: [], totals: [] };
  const candidateTexts: Buffer[] = [];
  const rowTexts: Buffer[] = [];
  const dirIds = new Map<string, number>();
  for (const e of entries) {
    const cut = Math.max(e.path.lastIndexOf('/'), e.path.lastIndexOf('\\')) + 1;
    const dir = e.path.slice(0, cut);
    let d = dirIds.get(dir);
    if (d === undefined) {
      d = columns.dirs.push(dir) - 1;
      dirIds.set(dir, d);
    }
    columns.dirOf.push(d);
    columns.names.push(e.path.slice(cut));
    columns.sources.push(e.source);
    columns.sizes.push(e.size);
    columns.mtimes.push(e.mtimeMs);
    columns.skips.push(e.skip);
    columns.ats.push(e.at);
    columns.cwds.push(e.cwd);
    columns.ids.push(e.id);
    columns.notes.push(e.note);
    columns.totals.push(...e.totals);
    candidateTexts.push(e.skip === null ? bytesOf(e, 'candidate') : Buffer.alloc(0));
    rowTexts.push(e.skip === null ? bytesOf(e, 'row') : Buffer.alloc(0));
  }
  const head = Buffer.from(JSON.stringify(columns));
  const pad = (4 - ((16 + head.length) % 4)) % 4;
  const offsets = (texts: Buffer[]) => {
    const o = new Uint32Array(texts.length + 1);
    for (let i = 0; i < texts.length; i++) o[i + 1] = o[i]! + texts[i]!.length;
    return Buffer.from(o.buffer);
  };
  const prefix = Buffer.alloc(16);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(head.length, 8);
  prefix.writeUInt32LE(entries.length, 12);
  return Buffer.concat([prefix, head, Buffer.alloc(pad), offsets(candidateTexts), offsets(rowTexts), ...candidateTexts, ...rowTexts]);
}


/**
 * An entry of a decoded index: plain fields plus offsets into the file's buffer, methods on the
 * prototype. 20,000 of these are made per warm listing; closures per entry made the garbage
 * collector the largest cost of a warm `baton list`.
 */
class DecodedEntry implements IndexEntry {
  #parsed: ImportedCandidate | null = null;
  constructor(
    private readonly file: DecodedFile,
    private readonly i: number,
    readonly path: string,
    readonly source: AgentSource,
    readonly size: number,
    readonly mtimeMs: number,
    readonly skip: string | null,
    readonly at: number,
    readonly cwd: string,
    readonly id: string,
    readonly note: string | null,
  ) {}
  get totals(): EntryTotals {
    const t = this.file.columns.totals;
    const k = 4 * this.i;
    return [t[k]!, t[k + 1]!, t[k + 2]!, t[k + 3]!];
  }
  extras(): Buffer {
    return this.file.buf.subarray(this.file.textsAt + this.file.candOff[this.i]!, this.file.textsAt + this.file.candOff[this.i + 1]!);
  }
  row(): IndexRow {
    return JSON.parse(this.rowText()) as IndexRow;
  }
  rowBytes(): Buffer {
    return this.file.buf.subarray(this.file.rowsAt + this.file.rowOff[this.i]!, this.file.rowsAt + this.file.rowOff[this.i + 1]!);
  }
  rowText(): string {
    return this.rowBytes().toString('utf8');
  }
  copyRow(target: Buffer, at: number): number {
    const start = this.file.rowsAt + this.file.rowOff[this.i]!;
    const end = this.file.rowsAt + this.file.rowOff[this.i + 1]!;
    if (at + end - start > target.length) return -1;
    return at + this.file.buf.copy(target, at, start, end);
  }
  text(): string {
    return this.rowText();
  }
  candidate(): ImportedCandidate {
    return (this.#parsed ??= candidateOf(this.source, this.path, this.note, this.rowBytes(), this.extras()));
  }
}

interface DecodedFile {
  buf: Buffer;
  columns: Columns;
  candOff: Uint32Array;
  rowOff: Uint32Array;
  textsAt: number;
  rowsAt: number;
}

/** An entry read from an index file keeps its bytes: they are copied as they are when the index is rewritten. */
function bytesOf(e: IndexEntry, which: 'candidate' | 'row'): Buffer {
  if (e instanceof DecodedEntry) return which === 'candidate' ? e.extras() : e.rowBytes();
  return Buffer.from(which === 'candidate' ? JSON.stringify(extrasOf(e.candidate())) : e.rowText());
}

/**
 * What a candidate holds beyond its list row, path and note: the row's title and cwd are
 * defaulted when unknown, so the originals are kept only when they differ.
 */
type Extras = [title: string | null, cwd: string | null | 0, exact: boolean, model: string | null, cliVersion: string | null, fingerprint: string];

function extrasOf(c: ImportedCandidate): Extras {
  const row = candidateRow(c);
  return [row.title === c.title ? null : c.title, c.cwd === row.cwd ? 0 : c.cwd, c.messageCountExact, c.model, c.cliVersion, c.fingerprint];
}

function candidateOf(source: AgentSource, path: string, note: string | null, rowBytes: Buffer, extrasBytes: Buffer): ImportedCandidate {
  const row = JSON.parse(rowBytes.toString('utf8')) as IndexRow;
  const [title, cwd, exact, model, cliVersion, fingerprint] = JSON.parse(extrasBytes.toString('utf8')) as Extras;
  const externalId = row.id.slice(source.length + 1);
  const candidate: ImportedCandidate = {
    source,
    externalId,
    path,
    title: title ?? row.title,
    cwd: cwd === 0 ? row.cwd : cwd,
    branch: row.branch,
    updatedAt: row.updatedAt,
    messageCount: row.messageCount,
    messageCountExact: exact,
    model,
    cliVersion,
    fingerprint,
    resumeCommand: resumeCommandFor(source, externalId),
  };
  if (note !== null) candidate.note = note;
  return candidate;
}

/** Decodes an index; null for a missing, damaged or other-version file (the scan rebuilds it). */
export function decodeCandidateIndexWithMeta(buf: Buffer): { entries: IndexEntry[]; meta: IndexMeta } | null {
  if (buf.length < 16 || buf.toString('latin1', 0, 8) !== MAGIC) return null;
  const headLength = buf.readUInt32LE(8);
  const count = buf.readUInt32LE(12);
  const headEnd = 16 + headLength;
  const offsetsAt = headEnd + ((4 - (headEnd % 4)) % 4);
  const textsAt = offsetsAt + 8 * (count + 1);
  if (headLength > CANDIDATE_INDEX_MAX_BYTES || textsAt > buf.length) return null;
  let columns: Columns;
  try {
    columns = JSON.parse(buf.toString('utf8', 16, headEnd)) as Columns;
  } catch {
    return null;
  }
  if (columns.version !== CANDIDATE_INDEX_VERSION || !Array.isArray(columns.folders) || columns.folderMtimes?.length !== columns.folders.length || columns.names?.length !== count || columns.dirOf?.length !== count || columns.totals?.length !== count * 4) return null;
  // Copied out so the views are aligned whatever the Buffer pool offset is.
  const candOff = new Uint32Array(buf.buffer.slice(buf.byteOffset + offsetsAt, buf.byteOffset + offsetsAt + 4 * (count + 1)));
  const rowOff = new Uint32Array(buf.buffer.slice(buf.byteOffset + offsetsAt + 4 * (count + 1), buf.byteOffset + textsAt));
  const rowsAt = textsAt + candOff[count]!;
  if (rowsAt + rowOff[count]! !== buf.length) return null;
  const file: DecodedFile = { buf, columns, candOff, rowOff, textsAt, rowsAt };
  const entries: IndexEntry[] = new Array(count);
  for (let i = 0; i < count; i++) {
    entries[i] = new DecodedEntry(
      file,
      i,
      (columns.dirs[columns.dirOf[i]!] ?? '') + columns.names[i]!,
      columns.sources[i]!,
      columns.sizes[i]!,
      columns.mtimes[i]!,
      columns.skips[i] ?? null,
      columns.ats[i]!,
      columns.cwds[i]!,
      columns.ids[i]!,
      columns.notes[i] ?? null,
    );
  }
  const meta: IndexMeta = { folders: columns.folders, folderMtimes: columns.folderMtimes, scope: columns.scope, unindexed: columns.unindexed, skipped: columns.skipped ?? {} };
  return { entries, meta };
}

/**
 * The index with its meta, when it was written (the file's mtime: the file system's clock, which
 * folder mtimes are compared with) and when a full scan last confirmed it (the `.verified` file
 * beside it: this machine's clock, compared with Date.now(); the two clocks can disagree).
 */
export async function readCandidateIndex(file: string | undefined): Promise<{ entries: IndexEntry[]; meta: IndexMeta; writtenAt: number; verifiedAt: number } | null> {
  if (!file) return null;
  try {
    const handle = await fsp.open(file, 'r');
    try {
      const [stat, buf, verified] = await Promise.all([handle.stat(), handle.readFile(), fsp.readFile(verifiedFileOf(file), 'utf8').catch(() => '')]);
      const decoded = decodeCandidateIndexWithMeta(openFileFor(file, buf));
      const verifiedAt = /^\d{1,16}$/.test(verified.trim()) ? Number(verified.trim()) : 0;
      return decoded ? { ...decoded, writtenAt: stat.mtimeMs, verifiedAt } : null;
    } finally {
      await handle.close();
    }
  } catch {
    return null; // missing or unreadable: the scan rebuilds it
  }
}

function verifiedFileOf(indexFile: string): string {
  return `${indexFile}.verified`;
}

/** Records that a full scan confirmed the index now (a few bytes; a lost write only costs one more full scan). */
export async function markCandidateIndexVerified(indexFile: string, now = Date.now()): Promise<void> {
  await fsp.writeFile(verifiedFileOf(indexFile), String(now), { mode: 0o600 }).catch(() => undefined);
}

/** temp → write → fsync → rename, like the digest cache: a reader sees the old index or the new one. */
export async function saveCandidateIndex(file: string, entries: readonly IndexEntry[], meta: IndexMeta = NO_INDEX_META): Promise<void> {
  const dir = dirname(file);
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await fsp.open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(sealFileFor(file, encodeCandidateIndex(entries, meta)));
    await handle.sync();
    await handle.close();
    await fsp.rename(temp, file);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fsp.unlink(temp).catch(() => undefined);
    throw error;
  }
}
