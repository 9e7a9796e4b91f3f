import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { basename, dirname, join } from 'node:path';
import { candidateRow } from '../../shared/agents.js';
import { EntryTexts, type PlacedTexts } from './entry-texts.js';
import { normalizeCwd, timeOf } from '../../shared/resume-groups.js';
import { QUICK_VERIFY_NEWEST, SCAN_CACHE_VERSION } from './limits.js';
import { oneBufferBlock, readLayout, SOURCE_CODES, writeLayoutParts, writeLayoutStreamed, type GroupRef, type IndexHead, type IndexSections, type LayoutSource, type ReadLayout } from './candidate-index-layout.js';
import { groupItems, type ListGroup } from './candidate-list.js';
import { groupCloseText, groupOpenText } from './list-json.js';
import { newestEntries } from './quick-scan.js';
import type { IndexRow } from '../../shared/session.js';
import { resumeCommandFor, type AgentSource, type ImportedCandidate } from './types.js';
import { dropIfStoreTurnedEncrypted, openPiecesFor, sealsFilesAt, streamSealerFor } from '../store/at-rest/registry.js';
import type { StreamSealer } from '../store/at-rest/sealed-stream.js';
import { plainReadsOf, privateCopyOf, readResidentPrefix, windowedReader } from './index-file-source.js';
import { firstScreenSection } from './candidate-index-first-screen.js';
import { limitHeapGrowth } from '../perf/heap-growth.js';

/**
 * The compact warm cache (docs/importer-candidate-index.md): one entry per scanned session file
 * holding only what a listing needs, so a warm `baton list` never parses the full digest cache
 * (importers-cache.json, 16 MB at 20,000 sessions). The byte layout is candidate-index-layout.ts:
 * entries in listing order, each row a slice of the pre-rendered `baton list --json` groups.
 * Entries decode their candidate (extras) and row only when asked for; index-listing.ts reads a
 * listing without decoding entries at all.
 */
/**
 * Bumped with the layout; the digest cache version is part of it, so both invalidate together.
 * 3_200: the first screen section (candidate-index-first-screen.ts); an older file is not read
 * (the scan rebuilds it once, as after any version change).
 */
export const CANDIDATE_INDEX_VERSION = 3_200 + SCAN_CACHE_VERSION;

/** Counters a digest contributes to ScanStats, kept so a warm scan reports the same totals. */
export type EntryTotals = readonly [tornLines: number, unknownTypes: number, danglingParents: number, compactions: number];

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

/**
 * A fresh entry from a scanned candidate (or a skipped file). It keeps the candidate as two texts,
 * its list row and its extras (as the index stores them), not the candidate, its row object and
 * closures: at 100,000 sessions those were most of a cold listing's heap (bench/README.md, issue 15,
 * ninth sitting). The texts are bytes placed by `texts` (entry-texts.ts: a full scan passes one
 * store for all its entries, so they share chunks outside the heap). candidate() and row() parse
 * them back when a caller asks.
 */
export function entryOf(path: string, source: AgentSource, size: number, mtimeMs: number, candidate: ImportedCandidate | null, skip: string | null, totals: EntryTotals, texts: EntryTexts = new EntryTexts()): IndexEntry {
  if (!candidate) return new FreshEntry(path, source, size, mtimeMs, skip ?? 'skipped', 0, '', '', null, totals, null);
  const row = candidateRow(candidate);
  return new FreshEntry(path, source, size, mtimeMs, null, timeOf(row.updatedAt), texts.shared(normalizeCwd(row.cwd)), row.id, candidate.note ?? null, totals, texts.place(JSON.stringify(row), JSON.stringify(extrasOf(candidate, row))));
}

const NO_TEXT = Buffer.alloc(0);

/**
 * An entry made by a scan: plain fields, and its row and extras as bytes of a shared chunk
 * (row [start, mid), extras [mid, end)); methods on the prototype (no closures per entry).
 */
class FreshEntry implements IndexEntry {
  #parsed: ImportedCandidate | null = null;
  readonly #chunk: Buffer;
  readonly #start: number;
  readonly #mid: number;
  readonly #end: number;
  constructor(
    readonly path: string,
    readonly source: AgentSource,
    readonly size: number,
    readonly mtimeMs: number,
    readonly skip: string | null,
    readonly at: number,
    readonly cwd: string,
    readonly id: string,
    readonly note: string | null,
    readonly totals: EntryTotals,
    placed: PlacedTexts | null,
  ) {
    this.#chunk = placed?.chunk ?? NO_TEXT;
    this.#start = placed?.start ?? 0;
    this.#mid = placed?.mid ?? 0;
    this.#end = placed?.end ?? 0;
  }
  rowText(): string {
    return this.#chunk.toString('utf8', this.#start, this.#mid);
  }
  text(): string {
    return this.rowText();
  }
  extrasText(): string {
    return this.#chunk.toString('utf8', this.#mid, this.#end);
  }
  rowLength(): number {
    return this.#mid - this.#start;
  }
  /** Copies the row's bytes to `at` in `target`; where they end, or -1 when they do not fit (a listing item's copyRow). */
  copyRow(target: Buffer, at: number): number {
    if (at + this.#mid - this.#start > target.length) return -1;
    return at + this.#chunk.copy(target, at, this.#start, this.#mid);
  }
  extrasLength(): number {
    return this.#end - this.#mid;
  }
  copyExtras(target: Buffer, at: number): void {
    this.#chunk.copy(target, at, this.#mid, this.#end);
  }
  row(): IndexRow {
    if (this.skip !== null) throw new Error(`${this.path} is not a candidate (${this.skip})`);
    return JSON.parse(this.rowText()) as IndexRow;
  }
  candidate(): ImportedCandidate {
    if (this.skip !== null) throw new Error(`${this.path} is not a candidate (${this.skip})`);
    return (this.#parsed ??= candidateOf(this.source, this.path, this.note, this.rowText(), this.extrasText()));
  }
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

/** Per-entry columns (listing order). Sort times and tools are binary arrays (candidate-index-layout.ts). */
export interface Columns {
  /** Paths as (folder, name): 20,000 sessions share a handful of folders. */
  dirs: string[];
  dirOf: number[];
  names: string[];
  sizes: number[];
  mtimes: number[];
  skips: Array<string | null>;
  cwds: string[];
  ids: string[];
  notes: Array<string | null>;
  totals: number[];
}

export function candidateIndexFileFor(cacheFile: string): string {
  return join(dirname(cacheFile), 'importers-candidates.idx');
}

/**
 * Serializes entries in listing order (groupItems: by directory, newest first; skipped files
 * last) with the listing block pre-rendered; candidate and row texts of entries read from an
 * older index are copied as bytes.
 */
export function encodeCandidateIndex(entries: readonly IndexEntry[], meta: IndexMeta = NO_INDEX_META): Buffer {
  const { length, parts } = writeLayoutParts(encodeCandidateIndexSections(entries, meta));
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  for (const part of parts) at += part.copy(out, at); // each part copied before the next is made (Section)
  if (at !== length) throw new Error(`candidate index: its parts came to ${at} bytes, sized ${length}`);
  return out;
}

/** encodeCandidateIndex's sections (candidate-index-layout.ts lays them out as bytes). */
function encodeCandidateIndexSections(entries: readonly IndexEntry[], meta: IndexMeta = NO_INDEX_META): IndexSections {
  const grouped = groupItems(entries.filter((e) => e.skip === null));
  const ordered: IndexEntry[] = [];
  for (const g of grouped) for (const item of g.items) ordered.push(item as IndexEntry);
  const candidates = ordered.length;
  for (const e of entries) if (e.skip !== null) ordered.push(e);

  const sortTimes = new Float64Array(ordered.length);
  const sources = new Uint8Array(ordered.length);
  // The folders of the paths, numbered in order of first use (the columns' `dirs`), and each
  // entry's folder number and file name's start, found once here: the columns' two passes
  // (columnsJson) searched every path for its last separator again, twice each (~40 ms of a 20k
  // cold listing's one-core persist, bench/README.md, issue 15, fifteenth sitting).
  const dirIds = new Map<string, number>();
  const paths: PathColumns = { dirOf: new Uint32Array(ordered.length), nameAt: new Uint32Array(ordered.length) };
  // The per-entry work is in small functions (addFolder, extrasLengthOf, rowLengthOf): V8
  // optimizes a function called 20,000 times, while these one-shot loops stay in baseline code.
  for (let i = 0; i < ordered.length; i++) {
    const e = ordered[i]!;
    addFolder(dirIds, paths, i, e.path);
    sortTimes[i] = e.at;
    sources[i] = SOURCE_CODES.indexOf(e.source);
  }
  // The extras texts are sized here and made in pieces as they are written (extrasPieces): held in
  // one buffer they were 12 MB at the peak of a rewrite at 100,000 sessions.
  const extrasEnds = new Uint32Array(ordered.length);
  let extrasLength = 0;
  for (let i = 0; i < ordered.length; i++) {
    extrasLength += extrasLengthOf(ordered[i]!);
    extrasEnds[i] = extrasLength;
  }

  // The listing block: what writeListJson prints between `"groups":[` and `]`. Its rows' places
  // come from their lengths; its bytes are made piece by piece (rows of a read index copied
  // straight from its file), once for the groups' CRCs and again for the file's CRC and to write:
  // held whole, it was 29 MB at the peak of an index rewrite at 100,000 sessions.
  const opens = grouped.map((g) => Buffer.from(groupOpenText(g.cwd)));
  const closes = grouped.map((g) => Buffer.from(groupCloseText(g.newestAt)));
  const rows = { starts: new Uint32Array(ordered.length), ends: new Uint32Array(ordered.length) };
  const groups: GroupRef[] = [];
  let length = 0;
  let row = 0;
  for (let g = 0; g < grouped.length; g++) {
    const group = grouped[g]!;
    if (g > 0) length += 1;
    const start = length;
    length += opens[g]!.length;
    for (let k = 0; k < group.items.length; k++) {
      if (k > 0) length += 1;
      rows.starts[row + k] = length;
      length += rowLengthOf(ordered[row + k]!);
      rows.ends[row + k] = length;
    }
    length += closes[g]!.length;
    groups.push([group.cwd, group.newestAt, row, group.items.length, start, length, 0]);
    row += group.items.length;
  }
  const block = () => listingBlock(grouped, ordered, rows, opens, closes);
  let blockBytes = 0;
  for (const piece of listingBlock(grouped, ordered, rows, opens, closes, (g, crc) => (groups[g]![6] = crc))) blockBytes += piece.length;
  if (blockBytes !== length) throw new Error(`candidate index: the listing block came to ${blockBytes} bytes, sized ${length}`);
  const notes = ordered.slice(0, candidates).flatMap((e) => (e.note ? [`${e.path}: ${e.note}`] : []));
  notes.sort();
  const newest = newestEntries(ordered, QUICK_VERIFY_NEWEST).map((e): [string, number, number] => [e.path, e.size, e.mtimeMs]);
  const first = firstScreenSection(ordered, candidates, sortTimes);
  const head: IndexHead = { version: CANDIDATE_INDEX_VERSION, ...meta, listing: { files: ordered.length, candidates, groups, notes, newest, blockBytes: length }, first: { bytes: first.length, crc: crc32(first) } };
  return { head: JSON.stringify(head), columns: () => columnsJson(ordered, dirIds, paths), at: sortTimes, extras: { ends: extrasEnds, bytes: () => extrasPieces(ordered, extrasEnds) }, rows, sources, block, first };
}

const COMMA_BYTE = 0x2c;

/** Where a path's file name begins: paths are stored as (folder, name) columns. */
function nameStart(path: string): number {
  return Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1;
}

/** Per entry in listing order: its folder's number in `dirs` and where its file name begins. */
interface PathColumns {
  dirOf: Uint32Array;
  nameAt: Uint32Array;
}

/** Numbers the path's folder, if it is new, and records entry `i`'s folder number and name start. */
function addFolder(dirIds: Map<string, number>, paths: PathColumns, i: number, path: string): void {
  const at = nameStart(path);
  const dir = path.slice(0, at);
  let id = dirIds.get(dir);
  if (id === undefined) dirIds.set(dir, (id = dirIds.size));
  paths.dirOf[i] = id;
  paths.nameAt[i] = at;
}

/** Bytes of an entry's extras text (none for a skipped file). */
function extrasLengthOf(e: IndexEntry): number {
  if (e.skip !== null) return 0;
  return e instanceof DecodedEntry || e instanceof FreshEntry ? e.extrasLength() : Buffer.byteLength(extrasTextOf(e));
}

/** Bytes per piece of the extras as they are made (an entry's longer extras get a piece of their own). */
const EXTRAS_PIECE_BYTES = 1 << 20;

/** The entries' extras texts (sized in `ends`) in pieces, one buffer filled again (a Section's piece is used before the next). */
function* extrasPieces(ordered: readonly IndexEntry[], ends: Uint32Array): Generator<Buffer> {
  let piece = Buffer.allocUnsafe(EXTRAS_PIECE_BYTES);
  let at = 0;
  for (let i = 0; i < ordered.length; i++) {
    const e = ordered[i]!;
    const length = ends[i]! - (i === 0 ? 0 : ends[i - 1]!);
    if (e.skip !== null || length === 0) continue;
    if (at + length > piece.length) {
      if (at > 0) yield piece.subarray(0, at);
      at = 0;
      if (length > piece.length) piece = Buffer.allocUnsafe(length);
    }
    if (e instanceof DecodedEntry || e instanceof FreshEntry) e.copyExtras(piece, at);
    else piece.write(extrasTextOf(e), at, 'utf8');
    at += length;
  }
  if (at > 0) yield piece.subarray(0, at);
}

/** Bytes per piece of the listing block as it is made (a row longer than this gets a piece of its own). */
const BLOCK_PIECE_BYTES = 1 << 20;

/**
 * The listing block's bytes in pieces: groups in order, separated by commas, each its opening,
 * its rows (comma-separated, placed in `rows` already) and its closing. `onGroup` gets each
 * group's CRC-32 (its bytes only, as the head records it).
 */
function* listingBlock(grouped: readonly ListGroup[], ordered: readonly IndexEntry[], rows: { starts: Uint32Array; ends: Uint32Array }, opens: readonly Buffer[], closes: readonly Buffer[], onGroup?: (g: number, crc: number) => void): Generator<Buffer> {
  let piece = Buffer.allocUnsafe(BLOCK_PIECE_BYTES);
  let at = 0;
  // The current group's CRC so far, and where its bytes in `piece` begin.
  let crc = 0;
  let from = 0;
  const addToCrc = () => {
    // Empty views skipped: Node 20's zlib.crc32 answers 0 for an empty view of an empty ArrayBuffer, whatever the running value.
    if (onGroup && at > from) crc = crc32(piece.subarray(from, at), crc);
    from = at;
  };
  // Room for `n` more bytes: the piece so far is handed out, then filled again from its start (a
  // Section's piece is used before the next is asked for): a new megabyte per piece, twice over
  // the block, was 30 MB of buffers at the peak of a rewrite at 100,000 sessions.
  function* room(n: number): Generator<Buffer> {
    if (at + n <= piece.length) return;
    addToCrc();
    if (at > 0) yield piece.subarray(0, at);
    if (piece.length < n) piece = Buffer.allocUnsafe(n);
    at = 0;
    from = 0;
  }
  let row = 0;
  for (let g = 0; g < grouped.length; g++) {
    if (g > 0) {
      yield* room(1);
      piece[at++] = COMMA_BYTE;
    }
    from = at;
    crc = 0;
    yield* room(opens[g]!.length);
    at += opens[g]!.copy(piece, at);
    const size = grouped[g]!.items.length;
    for (let k = 0; k < size; k++) {
      // The row's length as placed (not measured again), and room asked for only when the piece is
      // full: a room generator and a byteLength per row, over 20,000 rows in each of the block's
      // three passes, were half of a pass's CPU.
      const needed = rows.ends[row + k]! - rows.starts[row + k]! + 1;
      if (at + needed > piece.length) yield* room(needed);
      if (k > 0) piece[at++] = COMMA_BYTE;
      at = copyRowInto(ordered[row + k]!, piece, at);
    }
    row += size;
    yield* room(closes[g]!.length);
    at += closes[g]!.copy(piece, at);
    addToCrc();
    onGroup?.(g, crc);
  }
  if (at > 0) yield piece.subarray(0, at);
}

/**
 * Entries per piece of the columns' JSON: texts of ~60 KB at most (paths are the longest values),
 * short-lived in V8's young generation. At 4,096 a piece's text was ~0.5 MB, a large object that
 * only a full collection frees: 40 MB of them (two passes) at the peak of the host's index rewrite.
 */
const COLUMNS_PIECE_ENTRIES = 512;

/**
 * Each column after `dirs` (Columns, in its key order): what an entry adds to it. The columns are
 * made piece by piece from the entries as they are written, not held: ten arrays of 100,000 values
 * (and a sliced name string per entry) were ~17 MB of large objects at the peak of a cold
 * listing's encode (bench/README.md, issue 15, thirteenth sitting).
 */
const ENTRY_COLUMNS: ReadonlyArray<[key: Exclude<keyof Columns, 'dirs'>, add: (out: unknown[], e: IndexEntry, i: number, paths: PathColumns) => void]> = [
  ['dirOf', (out, _e, i, paths) => out.push(paths.dirOf[i]!)],
  ['names', (out, e, i, paths) => out.push(e.path.slice(paths.nameAt[i]!))],
  ['sizes', (out, e) => out.push(e.size)],
  ['mtimes', (out, e) => out.push(e.mtimeMs)],
  ['skips', (out, e) => out.push(e.skip)],
  ['cwds', (out, e) => out.push(e.cwd)],
  ['ids', (out, e) => out.push(e.id)],
  ['notes', (out, e) => out.push(e.note)],
  ['totals', (out, e) => {
    const t = e.totals;
    out.push(t[0], t[1], t[2], t[3]);
  }],
];

/**
 * JSON.stringify(columns) of the entries in `ordered`, byte for byte, as pieces of
 * COLUMNS_PIECE_ENTRIES entries' values written into one reused buffer (a consumer is done with a
 * part before it asks for the next): the whole text was a 20 MB string and its 20 MB of bytes at
 * 100,000 entries, at the peak of an index rewrite (the host's in-place update, bench/README.md
 * issue 15 eighth sitting).
 */
function* columnsJson(ordered: readonly IndexEntry[], dirIds: ReadonlyMap<string, number>, paths: PathColumns): Generator<Buffer> {
  let piece = Buffer.allocUnsafe(BLOCK_PIECE_BYTES);
  const bytesOf = (text: string): Buffer => {
    const length = Buffer.byteLength(text);
    if (length > piece.length) piece = Buffer.allocUnsafe(length);
    return piece.subarray(0, piece.write(text, 0, 'utf8'));
  };
  yield bytesOf(`{"dirs":${JSON.stringify([...dirIds.keys()])}`);
  const values: unknown[] = [];
  for (const [key, add] of ENTRY_COLUMNS) {
    yield bytesOf(`,${JSON.stringify(key)}:[`);
    for (let from = 0; from < ordered.length; from += COLUMNS_PIECE_ENTRIES) {
      values.length = 0;
      for (let i = from; i < Math.min(from + COLUMNS_PIECE_ENTRIES, ordered.length); i++) add(values, ordered[i]!, i, paths);
      const text = JSON.stringify(values);
      yield bytesOf(`${from > 0 ? ',' : ''}${text.slice(1, -1)}`);
    }
    yield bytesOf(']');
  }
  yield bytesOf('}');
}

/** Bytes of an entry's list row in the listing block. */
function rowLengthOf(e: IndexEntry): number {
  return e instanceof DecodedEntry || e instanceof FreshEntry ? e.rowLength() : Buffer.byteLength(e.rowText());
}

/** Writes an entry's list row at `at` (sized by rowLengthOf); returns where it ends. */
function copyRowInto(e: IndexEntry, target: Buffer, at: number): number {
  if (e instanceof DecodedEntry || e instanceof FreshEntry) {
    const end = e.copyRow(target, at);
    if (end < 0) throw new Error(`candidate index: no room for the row of ${e.path}`);
    return end;
  }
  return at + target.write(e.rowText(), at, 'utf8');
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
    const l = this.file.layout;
    return this.file.extras(l.extrasAt + l.extrasOff[this.i]!, l.extrasAt + l.extrasOff[this.i + 1]!);
  }
  row(): IndexRow {
    return JSON.parse(this.rowText()) as IndexRow;
  }
  rowBytes(): Buffer {
    const l = this.file.layout;
    return l.block(l.rowStart[this.i]!, l.rowEnd[this.i]!);
  }
  rowText(): string {
    const l = this.file.layout;
    // Resident: decoded straight from the read window (no Buffer per row).
    return this.file.blockText ? this.file.blockText(l.rowStart[this.i]!, l.rowEnd[this.i]!) : this.rowBytes().toString('utf8');
  }
  extrasText(): string {
    const l = this.file.layout;
    const [from, to] = [l.extrasAt + l.extrasOff[this.i]!, l.extrasAt + l.extrasOff[this.i + 1]!];
    return this.file.extrasText ? this.file.extrasText(from, to) : this.extras().toString('utf8');
  }
  extrasLength(): number {
    const l = this.file.layout;
    return l.extrasOff[this.i + 1]! - l.extrasOff[this.i]!;
  }
  copyExtras(target: Buffer, at: number): void {
    const l = this.file.layout;
    const [from, to] = [l.extrasAt + l.extrasOff[this.i]!, l.extrasAt + l.extrasOff[this.i + 1]!];
    if (this.file.copyExtras) this.file.copyExtras(from, to, target, at);
    else this.extras().copy(target, at);
  }
  rowLength(): number {
    const l = this.file.layout;
    return l.rowEnd[this.i]! - l.rowStart[this.i]!;
  }
  copyRow(target: Buffer, at: number): number {
    const l = this.file.layout;
    const start = l.rowStart[this.i]!;
    const end = l.rowEnd[this.i]!;
    if (at + end - start > target.length) return -1;
    if (this.file.copyBlock) {
      this.file.copyBlock(start, end, target, at);
      return at + end - start;
    }
    return at + this.rowBytes().copy(target, at);
  }
  text(): string {
    return this.rowText();
  }
  candidate(): ImportedCandidate {
    return (this.#parsed ??= candidateOf(this.source, this.path, this.note, this.rowText(), this.extrasText()));
  }
}

interface DecodedFile {
  layout: ReadLayout;
  columns: Columns;
  /** File bytes [from, to) of the extras texts: from the buffer, or read back from the open file (resident). */
  extras(from: number, to: number): Buffer;
  /** Copies listing-block bytes [start, end) into `target` (resident: straight from the read window, no Buffer per row). */
  copyBlock?(start: number, end: number, target: Buffer, at: number): void;
  /** Copies extras bytes [from, to) of the file into `target` (resident: straight from the read window). */
  copyExtras?(from: number, to: number, target: Buffer, at: number): void;
  /** Listing-block bytes [start, end) and extras bytes [from, to) of the file, decoded (resident: from the read window). */
  blockText?(start: number, end: number): string;
  extrasText?(from: number, to: number): string;
}

/** The extras text of an entry not read from an index (a fresh one keeps it; another IndexEntry is encoded from its candidate). */
function extrasTextOf(e: IndexEntry): string {
  if (e instanceof FreshEntry) return e.extrasText();
  const c = e.candidate();
  return JSON.stringify(extrasOf(c, candidateRow(c)));
}

/**
 * What a candidate holds beyond its list row, path and note: the row's title and cwd are
 * defaulted when unknown, so the originals are kept only when they differ.
 */
type Extras = [title: string | null, cwd: string | null | 0, exact: boolean, model: string | null, cliVersion: string | null, fingerprint: string];

function extrasOf(c: ImportedCandidate, row: IndexRow): Extras {
  return [row.title === c.title ? null : c.title, c.cwd === row.cwd ? 0 : c.cwd, c.messageCountExact, c.model, c.cliVersion, c.fingerprint];
}

function candidateOf(source: AgentSource, path: string, note: string | null, rowText: string, extrasText: string): ImportedCandidate {
  const row = JSON.parse(rowText) as IndexRow;
  const [title, cwd, exact, model, cliVersion, fingerprint] = JSON.parse(extrasText) as Extras;
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
  const layout = readLayout(buf, CANDIDATE_INDEX_VERSION);
  if (!layout) return null;
  return decodeEntries(layout, (from, to) => buf.toString('utf8', from, to), (from, to) => buf.subarray(from, to));
}

/** Entries over a checked layout: the columns' text parsed, extras read through `extras`. */
function decodeEntries(layout: ReadLayout, text: (from: number, to: number) => string, extras: DecodedFile['extras'], resident: Pick<DecodedFile, 'copyBlock' | 'copyExtras' | 'blockText' | 'extrasText'> = {}): { entries: IndexEntry[]; meta: IndexMeta } | null {
  const count = layout.count;
  const columns = parseColumns(text(layout.columnsStart, layout.columnsEnd), count);
  if (!columns) return null;
  const file: DecodedFile = { layout, columns, extras, ...resident };
  const entries: IndexEntry[] = new Array(count);
  for (let i = 0; i < count; i++) {
    entries[i] = new DecodedEntry(
      file,
      i,
      (columns.dirs[columns.dirOf[i]!] ?? '') + columns.names[i]!,
      SOURCE_CODES[layout.sources[i]!] ?? 'claude',
      columns.sizes[i]!,
      columns.mtimes[i]!,
      columns.skips[i] ?? null,
      layout.at[i]!,
      columns.cwds[i]!,
      columns.ids[i]!,
      columns.notes[i] ?? null,
    );
  }
  const h = layout.head;
  const meta: IndexMeta = { folders: h.folders, folderMtimes: h.folderMtimes, scope: h.scope, unindexed: h.unindexed, skipped: h.skipped ?? {} };
  return { entries, meta };
}

/** An index's columns section parsed; null when it is not JSON or does not hold `count` entries. */
export function parseColumns(text: string, count: number): Columns | null {
  let columns: Columns;
  try {
    columns = JSON.parse(text) as Columns;
  } catch {
    return null;
  }
  if (!Array.isArray(columns?.dirs) || columns.names?.length !== count || columns.dirOf?.length !== count || columns.sizes?.length !== count || columns.mtimes?.length !== count || columns.totals?.length !== count * 4) return null;
  return columns;
}

/**
 * The index with its meta, when it was written (the file's mtime: the file system's clock, which
 * folder mtimes are compared with) and when a full scan last confirmed it (the `.verified` file
 * beside it: this machine's clock, compared with Date.now(); the two clocks can disagree).
 */
export async function readCandidateIndex(file: string | undefined, options: { resident?: boolean } = {}): Promise<CandidateIndexRead | null> {
  if (!file) return null;
  try {
    const handle = await fsp.open(file, 'r');
    try {
      const [stat, verified] = await Promise.all([handle.stat(), fsp.readFile(verifiedFileOf(file), 'utf8').catch(() => '')]);
      const verifiedAt = /^\d{1,16}$/.test(verified.trim()) ? Number(verified.trim()) : 0;
      // Resident, an encrypted store's index too: its private copy stays sealed, read through its pieces.
      if (options.resident) {
        const copy = await privateCopyOf(file, stat);
        const decoded = copy ? await decodeResident(file, copy, stat.size).catch(() => null) : null;
        if (!decoded) await copy?.close();
        return decoded ? { ...decoded, writtenAt: stat.mtimeMs, verifiedAt } : null;
      }
      const decoded = decodeCandidateIndexWithMeta(openPiecesFor(file, await handle.readFile()));
      return decoded ? { ...decoded, writtenAt: stat.mtimeMs, verifiedAt } : null;
    } finally {
      await handle.close();
    }
  } catch {
    return null; // missing or unreadable: the scan rebuilds it
  }
}

export interface CandidateIndexRead {
  entries: IndexEntry[];
  meta: IndexMeta;
  writtenAt: number;
  verifiedAt: number;
}

/**
 * A resident holder's entries that leave the extras and the listing block on disk, read back
 * through `handle`, a private copy of the index (privateCopyOf: unchanged whatever happens to the
 * index file). The copy closes when no entry of it is left (an index replaced by a rescan). Every byte is checked
 * against the file's CRC while it is read here.
 */
async function decodeResident(file: string, handle: FileHandle, size: number): Promise<{ entries: IndexEntry[]; meta: IndexMeta } | null> {
  // The copy's plaintext: read as it is, or through its pieces (each reader keeps its own last piece).
  const reads = () => plainReadsOf(file, handle.fd, size);
  const whole = reads();
  const kept = sealsFilesAt(file)
    ? await readResidentPrefix(whole.size, (target, at) => whole.readInto(at, target))
    : await readResidentPrefix(size, async (target, at) => (await handle.read(target, 0, target.length, at)).bytesRead);
  if (!kept) return null;
  const layout = readLayout(kept.source, CANDIDATE_INDEX_VERSION);
  if (!layout) return null;
  // A resident reader (the host) keeps these entries for its life: the cap is set before they are
  // decoded. Set once the read returned, it came too late whenever a mark-compact ended during the
  // decode: that one set the next limit at up to 4x the ~70 MB left alive at 100,000, no collection
  // came in the confirming scan, and the idle host kept its garbage: ~300 MB instead of ~240 in some
  // starts (bench/README.md, issue 15, twelfth sitting).
  limitHeapGrowth(layout.count);
  const block = windowedReader(reads());
  const extrasReader = windowedReader(reads());
  const extras = (from: number, to: number) => extrasReader.read(from, to);
  // blockAt copied: the layout's own block readers (block and blockParts, both replaced) hold the
  // kept bytes (the columns' text, ~20 MB at 100,000), which the entries would keep alive.
  const { blockAt } = layout;
  const resident: ReadLayout = { ...layout, ...oneBufferBlock((start, end) => block.read(blockAt + start, blockAt + end)) };
  const decoded = decodeEntries(resident, textOf(kept.source), extras, {
    copyBlock: (start, end, target, at) => block.copy(blockAt + start, blockAt + end, target, at),
    blockText: (start, end) => block.text(blockAt + start, blockAt + end),
    extrasText: (from, to) => extrasReader.text(from, to),
    copyExtras: (from, to, target, at) => extrasReader.copy(from, to, target, at),
  });
  // Every entry holds its file's `extras` reader: when that is collected, no entry is left.
  if (decoded) residentFiles.register(extras, handle);
  return decoded;
}

/** Made outside decodeResident: a closure there would share its scope with the block reader and keep the kept bytes alive. */
function textOf(source: LayoutSource): (from: number, to: number) => string {
  return (from, to) => source.read(from, to - from).toString('utf8');
}

/** Closes a resident index's file once its entries are collected. */
const residentFiles = new FinalizationRegistry<FileHandle>((handle) => void handle.close().catch(() => undefined));

export function verifiedFileOf(indexFile: string): string {
  return `${indexFile}.verified`;
}

/** Records that a full scan confirmed the index now (a few bytes; a lost write only costs one more full scan). */
export async function markCandidateIndexVerified(indexFile: string, now = Date.now()): Promise<void> {
  await fsp.writeFile(verifiedFileOf(indexFile), String(now), { mode: 0o600 }).catch(() => undefined);
  await dropIfStoreTurnedEncrypted(verifiedFileOf(indexFile));
}

/** temp → write → fsync → rename, like the digest cache: a reader sees the old index or the new one. */
export async function saveCandidateIndex(file: string, entries: readonly IndexEntry[], meta: IndexMeta = NO_INDEX_META): Promise<void> {
  const dir = dirname(file);
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await fsp.open(temp, 'wx', 0o600);
  try {
    // The parts are written as they are (no 57 MB copy at 100,000), in an encrypted store sealed in
    // pieces as they go (a warm listing then opens only the pieces it reads). The sections are made
    // once, the prefix (their lengths and CRC) written over its zeros at the end, before the fsync,
    // so the renamed file is whole. Sealed, the first piece (which holds the prefix) is kept in
    // memory and sealed last, over zeros of its size (sealed-stream.ts holdFirst).
    const streamed = writeLayoutStreamed(encodeCandidateIndexSections(entries, meta));
    const sealer = streamSealerFor(file, { holdFirst: true });
    if (sealer) {
      await writeParts(handle, sealedParts(sealer, streamed.parts));
      const first = sealer.sealFirst(streamed.prefix(), 0);
      if (first) await writeAllAt(handle, first.sealed, first.position);
      await writeParts(handle, [sealer.end()]);
    } else {
      await writeParts(handle, streamed.parts);
      await writeAllAt(handle, streamed.prefix(), 0);
    }
    await handle.sync();
    await handle.close();
    await fsp.rename(temp, file);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fsp.unlink(temp).catch(() => undefined);
    throw error;
  }
  await dropIfStoreTurnedEncrypted(file);
}

/** The header, then `parts` sealed as they fill pieces (the last piece left to the caller's end()). */
function* sealedParts(sealer: StreamSealer, parts: Iterable<Buffer>): Generator<Buffer> {
  yield sealer.header;
  for (const part of parts) yield* sealer.add(part);
}

/** Bytes an index is written in at most (small parts are gathered: 100,000 extras are a few bytes each). */
const WRITE_CHUNK_BYTES = 1 << 20;

/** Writes all of `b` at `position` (a short write continued). */
async function writeAllAt(handle: FileHandle, b: Buffer, position: number): Promise<void> {
  for (let at = 0; at < b.length; ) at += (await handle.write(b, at, b.length - at, position + at)).bytesWritten;
}

async function writeParts(handle: FileHandle, parts: Iterable<Buffer>): Promise<void> {
  const chunk = Buffer.allocUnsafe(WRITE_CHUNK_BYTES);
  let used = 0;
  const writeAll = async (b: Buffer) => {
    for (let at = 0; at < b.length; ) at += (await handle.write(b, at, b.length - at)).bytesWritten;
  };
  for (const part of parts) {
    if (used + part.length > WRITE_CHUNK_BYTES) {
      await writeAll(chunk.subarray(0, used));
      used = 0;
    }
    if (part.length >= WRITE_CHUNK_BYTES) await writeAll(part);
    else used += part.copy(chunk, used);
  }
  if (used > 0) await writeAll(chunk.subarray(0, used));
}
