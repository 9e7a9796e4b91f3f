import { crc32 } from 'node:zlib';
import type { AgentSource } from './types.js';
import type { IndexMeta } from './candidate-index.js';
import type { SizedParts } from '../store/at-rest/sealed-pieces.js';

/**
 * The byte layout of `importers-candidates.idx` (docs/importer-candidate-index.md), version 4:
 *
 *   "BTNCIDX4" · u32 head length · u32 columns length · u32 count · u32 CRC-32 of the rest ·
 *   u32 CRC-32 of the head and the arrays · head JSON · columns JSON ·
 *   pad to 8 · Float64[count] sort times · Uint32[count+1] extras offsets · Uint32[count] row
 *   starts · Uint32[count] row ends · Uint8[count] tools · extras texts · listing block ·
 *   first screen JSON (its length and CRC-32 in the head's `first`)
 *
 * Entries are stored in listing order: candidates grouped by directory, newest group first and
 * newest first inside a group (groupItems), then the skipped files. The listing block is the
 * `"groups"` array's contents of `baton list --json` exactly as printed, so an unfiltered listing
 * copies it as it is, and a row is a slice of it. The head (small: meta, group table, the newest
 * files for the freshness check) is all a warm listing parses; the columns (every entry's path,
 * size, mtime, directory, id, note …) are parsed only by a full scan or a host that needs entries.
 * The first screen (version 4) is the UI's first answer ready made: the newest candidates whole
 * (candidate-index-first-screen.ts), so a new host answers it from a few small reads while the
 * columns (~95 ms of parse at 20,000) wait until after that answer.
 */
export const CANDIDATE_INDEX_MAGIC = 'BTNCIDX4';
export const PREFIX_BYTES = 28;
/** A head or columns section larger than this is damage, not an index (100,000 entries take ~20 MB of columns). */
export const CANDIDATE_INDEX_MAX_SECTION_BYTES = 512 * 1024 * 1024;

/** One directory of the listing: [cwd, newestAt, first row, row count, block start, block end, CRC-32 of its bytes]. */
export type GroupRef = [cwd: string, newestAt: number, firstRow: number, rows: number, start: number, end: number, crc: number];

export interface ListingHead {
  /** Entries in the index (candidates and skipped files): `agentScan.files` of a listing. */
  files: number;
  /** Candidates: the first `candidates` entries, in listing order. */
  candidates: number;
  groups: GroupRef[];
  /** `path: note` of every candidate with a note, sorted. */
  notes: string[];
  /** The QUICK_VERIFY_NEWEST most recently modified files (ties at the cut included): [path, size, mtimeMs]. */
  newest: Array<[path: string, size: number, mtimeMs: number]>;
  blockBytes: number;
}

export interface IndexHead extends IndexMeta {
  version: number;
  listing: ListingHead;
  /** The first screen section at the file's end: its bytes and their CRC-32 (the lazy reads check it apart from the head's). */
  first: { bytes: number; crc: number };
}

export const SOURCE_CODES: readonly AgentSource[] = ['claude', 'codex'];

/**
 * A section's bytes, or a maker of them in pieces: called once for the length and CRC and again to
 * write (writeLayoutParts), or once, summed as it is written (writeLayoutStreamed); never held whole. A piece is valid until the next one is asked for (a maker may fill the
 * same buffer again): every reader copies, sums or writes it first.
 */
export type Section = Buffer | (() => Iterable<Buffer>);

function piecesOf(section: Section): Iterable<Buffer> {
  return Buffer.isBuffer(section) ? [section] : section();
}

export interface IndexSections {
  head: string;
  /** The columns' JSON. */
  columns: Section;
  at: Float64Array;
  /** Where each entry's extras text ends (`ends[i]`, counted from the first), and their bytes in entry order. */
  extras: { ends: Uint32Array; bytes: Section };
  /** Each row's place in the listing block ([0, 0] for a skipped file). */
  rows: { starts: Uint32Array; ends: Uint32Array };
  sources: Uint8Array;
  block: Section;
  /** The first screen's JSON (a few hundred KB at most: held whole). */
  first: Buffer;
}

/** CRC-32 of `b` continued from `crc`. Empty parts skipped: Node 20's zlib.crc32 answers 0 for an empty view of an empty ArrayBuffer, whatever the running value. */
const sum = (crc: number, b: Buffer): number => (b.length > 0 ? crc32(b, crc) : crc);

/** The fixed-size arrays after the columns (their pad comes first, sized once the columns' length is known), and the extras offsets they hold. */
function arraysOf(s: IndexSections): { arrays: Buffer[]; extrasEnd: number } {
  const count = s.at.length;
  const extrasOff = new Uint32Array(count + 1);
  extrasOff.set(s.extras.ends, 1);
  const view = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  return { arrays: [view(s.at), view(extrasOff), view(s.rows.starts), view(s.rows.ends), view(s.sources)], extrasEnd: extrasOff[count]! };
}

/** Zeros that bring a section ending at `before` to a multiple of 8 (the arrays are read as typed arrays in place). */
function padAfter(before: number): Buffer {
  return Buffer.alloc((8 - (before % 8)) % 8);
}

/** The file's first PREFIX_BYTES: magic, lengths, count, the CRC of everything after it and the CRC of the head and the arrays. */
function prefixOf(head: Buffer, columnsLength: number, count: number, crc: number, arrays: readonly Buffer[]): Buffer {
  const prefix = Buffer.alloc(PREFIX_BYTES);
  prefix.write(CANDIDATE_INDEX_MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(head.length, 8);
  prefix.writeUInt32LE(columnsLength, 12);
  prefix.writeUInt32LE(count, 16);
  prefix.writeUInt32LE(crc, 20);
  prefix.writeUInt32LE(arrays.reduce(sum, crc32(head)), 24);
  return prefix;
}

/**
 * The file's bytes as the parts they are made of, and their length (prefix with both CRCs filled in first), for
 * encodeCandidateIndex's one buffer. Columns and a block given in pieces are made twice (summed here, then
 * copied): a file is written in one pass instead (writeLayoutStreamed).
 */
export function writeLayoutParts(s: IndexSections): SizedParts {
  const count = s.at.length;
  const head = Buffer.from(s.head);
  let columnsLength = 0;
  let crc = sum(0, head);
  for (const piece of piecesOf(s.columns)) {
    columnsLength += piece.length;
    crc = sum(crc, piece);
  }
  const before = PREFIX_BYTES + head.length + columnsLength;
  const { arrays, extrasEnd } = arraysOf(s);
  const rest = [padAfter(before), ...arrays];
  crc = rest.reduce(sum, crc);
  let extrasLength = 0;
  for (const piece of piecesOf(s.extras.bytes)) {
    extrasLength += piece.length;
    crc = sum(crc, piece);
  }
  if (extrasLength !== extrasEnd) throw new Error(`candidate index: the extras came to ${extrasLength} bytes, sized ${extrasEnd}`);
  let blockLength = 0;
  for (const piece of piecesOf(s.block)) {
    blockLength += piece.length;
    crc = sum(crc, piece);
  }
  crc = sum(crc, s.first);
  const prefix = prefixOf(head, columnsLength, count, crc, arrays);
  const length = before + rest.reduce((n, b) => n + b.length, 0) + extrasLength + blockLength + s.first.length;
  function* parts(): Generator<Buffer> {
    yield prefix;
    yield head;
    yield* piecesOf(s.columns);
    yield* rest;
    yield* piecesOf(s.extras.bytes);
    yield* piecesOf(s.block);
    yield s.first;
  }
  return { length, parts: parts() };
}

/** The same file as writeLayoutParts, its sections made once; the prefix known only after the last part. */
export interface StreamedLayout {
  /** Every byte after the prefix, in file order (PREFIX_BYTES zeros first, where the prefix goes). */
  parts: Iterable<Buffer>;
  /** The prefix, once `parts` was read to its end (throws before: its lengths and CRCs are not known yet). */
  prefix(): Buffer;
}

/**
 * writeLayoutParts' bytes with each section made once, summed as it is handed out: the file starts
 * with a zeroed prefix, written over (positional write) once the last part is out. The columns, the
 * extras and the block were each made once more only to size and sum them first: ~100 ms of a 20k
 * cold listing's persist on one core (bench/README.md, issue 15, fifteenth sitting). Sealed, the
 * prefix's piece is sealed last (sealed-stream.ts holdFirst).
 */
export function writeLayoutStreamed(s: IndexSections): StreamedLayout {
  const count = s.at.length;
  const head = Buffer.from(s.head);
  let prefix: Buffer | null = null;
  function* parts(): Generator<Buffer> {
    yield Buffer.alloc(PREFIX_BYTES);
    yield head;
    let crc = sum(0, head);
    let columnsLength = 0;
    // Each piece summed before it is handed out: it is valid only until the next is asked for.
    for (const piece of piecesOf(s.columns)) {
      columnsLength += piece.length;
      crc = sum(crc, piece);
      yield piece;
    }
    const { arrays, extrasEnd } = arraysOf(s);
    for (const part of [padAfter(PREFIX_BYTES + head.length + columnsLength), ...arrays]) {
      crc = sum(crc, part);
      yield part;
    }
    let extrasLength = 0;
    for (const piece of piecesOf(s.extras.bytes)) {
      extrasLength += piece.length;
      crc = sum(crc, piece);
      yield piece;
    }
    if (extrasLength !== extrasEnd) throw new Error(`candidate index: the extras came to ${extrasLength} bytes, sized ${extrasEnd}`);
    for (const piece of piecesOf(s.block)) {
      crc = sum(crc, piece);
      yield piece;
    }
    crc = sum(crc, s.first);
    yield s.first;
    prefix = prefixOf(head, columnsLength, count, crc, arrays);
  }
  return {
    parts: parts(),
    prefix() {
      if (!prefix) throw new Error('candidate index: the prefix was asked for before the last part was written');
      return prefix;
    },
  };
}

export interface ReadLayout {
  /** The whole file (null when read lazily: head, arrays and the listing block only). */
  buf: Buffer | null;
  /** Bytes [start, end) of the listing block (read and checked on first use when lazy; throws IndexDamagedError). */
  block(start: number, end: number): Buffer;
  /**
   * The same bytes as views of the buffers they were read into, in order (none when empty): one
   * part from a plain or whole file; from a file sealed in pieces, one per opened piece the range
   * crosses (a group's JSON written out as it is, with no copy into one buffer; a row asked for by
   * `block` is put together only when it crosses a piece). Anything that replaces `block` replaces
   * this too: a stale one keeps the reader it closes over alive.
   */
  blockParts(start: number, end: number): Buffer[];
  head: IndexHead;
  count: number;
  columnsStart: number;
  columnsEnd: number;
  at: Float64Array;
  extrasOff: Uint32Array;
  rowStart: Uint32Array;
  rowEnd: Uint32Array;
  sources: Uint8Array;
  extrasAt: number;
  blockAt: number;
  /** Where the first screen section starts (it ends at the file's end: `head.first.bytes` long). */
  firstAt: number;
}

/** A group's bytes did not match their CRC: the index is damaged (the listing falls back to the scan). */
export class IndexDamagedError extends Error {
  constructor(what: string) {
    super(`the candidate index is damaged (${what}); the scan rebuilds it`);
  }
}

/** Where the layout's bytes come from: the whole file in memory, or positional reads of an open file. */
export interface LayoutSource {
  size: number;
  /** Bytes [at, at + length) (shorter only at the end of the file). */
  read(at: number, length: number): Buffer;
  /** Reads bytes [at, at + target.length) into `target` (fewer only at the end of the file); the count read. Optional: `read` serves otherwise. */
  readInto?(at: number, target: Buffer): number;
  /**
   * Bytes [at, at + length) as views of buffers never written again (a sealed file's opened
   * pieces), fewer only at the end of the file. Optional: a source with it is read without a copy
   * into one block buffer.
   */
  slices?(at: number, length: number): Buffer[];
  /** The whole file is in memory (its CRC is checked at once; the block needs no checks of its own). */
  whole: Buffer | null;
  /** Releases the file read from (positional reads). */
  close?(): void;
}

export function bufferSource(buf: Buffer): LayoutSource {
  return { size: buf.length, read: (at, length) => buf.subarray(at, at + length), whole: buf };
}

/** The fixed prefix's fields and where the extras begin; null when it is not this layout's. */
export function candidateIndexPrefix(prefix: Buffer): { headLength: number; columnsLength: number; count: number; crc: number; extrasAt: number } | null {
  if (prefix.length < PREFIX_BYTES || prefix.toString('latin1', 0, 8) !== CANDIDATE_INDEX_MAGIC) return null;
  const headLength = prefix.readUInt32LE(8);
  const columnsLength = prefix.readUInt32LE(12);
  const count = prefix.readUInt32LE(16);
  if (headLength > CANDIDATE_INDEX_MAX_SECTION_BYTES || columnsLength > CANDIDATE_INDEX_MAX_SECTION_BYTES) return null;
  const columnsEnd = PREFIX_BYTES + headLength + columnsLength;
  const arraysAt = columnsEnd + ((8 - (columnsEnd % 8)) % 8);
  // Sort times, extras offsets, row starts, row ends, tools.
  const extrasAt = arraysAt + 8 * count + 4 * (count + 1) + 4 * count + 4 * count + count;
  return { headLength, columnsLength, count, crc: prefix.readUInt32LE(20), extrasAt };
}

/**
 * Reads the prefix, the head and the fixed-size arrays, checking every offset against the file;
 * null for anything else (another version, truncation, damage): the scan rebuilds the index.
 * The columns JSON is left unparsed. From the whole file, every byte is checked at once (one
 * CRC); read lazily, the head and the arrays are checked here and each directory's group when it
 * is first read (`block`).
 */
export function readLayout(bufOrSource: Buffer | LayoutSource, version: number): ReadLayout | null {
  const src = Buffer.isBuffer(bufOrSource) ? bufferSource(bufOrSource) : bufOrSource;
  const prefix = src.read(0, PREFIX_BYTES);
  const fields = candidateIndexPrefix(prefix);
  if (!fields) return null;
  const { headLength, columnsLength, count } = fields;
  // Rows are copied to stdout as they are: a damaged byte anywhere must send the scan back to the logs.
  // (CRC-32 of 11 MB: ~2 ms here; at-rest encryption authenticates the file besides.)
  if (src.whole && crc32(src.whole.subarray(PREFIX_BYTES)) !== prefix.readUInt32LE(20)) return null;
  const columnsStart = PREFIX_BYTES + headLength;
  const columnsEnd = columnsStart + columnsLength;
  const arraysAt = columnsEnd + ((8 - (columnsEnd % 8)) % 8);
  const extrasOffAt = arraysAt + 8 * count;
  const rowStartAt = extrasOffAt + 4 * (count + 1);
  const rowEndAt = rowStartAt + 4 * count;
  const sourcesAt = rowEndAt + 4 * count;
  const extrasAt = sourcesAt + count;
  if (extrasAt > src.size) return null;
  const headBytes = src.read(PREFIX_BYTES, headLength);
  if (headBytes.length !== headLength) return null;
  // Each array read straight into its own aligned memory: one copy of the file's bytes, not two
  // (a read into one buffer, then a copy out of it per array was 420 KB of fresh pages more at
  // 20,000 entries, ~1.5 ms of every listing here; bench/README.md, issue 17).
  const arrayAt = (at: number, bytes: number): Buffer | null => {
    const out = Buffer.from(new ArrayBuffer(bytes)); // its own ArrayBuffer at offset 0: viewed as a typed array in place
    const got = src.readInto ? src.readInto(at, out) : src.read(at, bytes).copy(out);
    return got === bytes ? out : null;
  };
  const sortTimes = arrayAt(arraysAt, 8 * count);
  const extrasOffBytes = arrayAt(extrasOffAt, 4 * (count + 1));
  const rowStartBytes = arrayAt(rowStartAt, 4 * count);
  const rowEndBytes = arrayAt(rowEndAt, 4 * count);
  const sources = arrayAt(sourcesAt, count);
  if (!sortTimes || !extrasOffBytes || !rowStartBytes || !rowEndBytes || !sources) return null;
  if (!src.whole && [sortTimes, extrasOffBytes, rowStartBytes, rowEndBytes, sources].reduce(sum, crc32(headBytes)) !== prefix.readUInt32LE(24)) return null;
  let head: IndexHead;
  try {
    head = JSON.parse(headBytes.toString('utf8')) as IndexHead;
  } catch {
    return null;
  }
  const listing = head?.listing;
  const first = head?.first;
  if (!first || !Number.isSafeInteger(first.bytes) || first.bytes < 0 || typeof first.crc !== 'number') return null;
  if (head.version !== version || !Array.isArray(head.folders) || head.folderMtimes?.length !== head.folders.length || !listing || !Array.isArray(listing.groups) || !Array.isArray(listing.newest) || !Array.isArray(listing.notes)) return null;
  if (listing.files !== count || !(listing.candidates >= 0 && listing.candidates <= count)) return null;
  const extrasOff = new Uint32Array(extrasOffBytes.buffer);
  const blockAt = extrasAt + extrasOff[count]!;
  const firstAt = blockAt + listing.blockBytes;
  if (firstAt + first.bytes !== src.size) return null;
  const rowStart = new Uint32Array(rowStartBytes.buffer);
  const rowEnd = new Uint32Array(rowEndBytes.buffer);
  for (let i = 0; i < count; i++) if (rowStart[i]! > rowEnd[i]! || rowEnd[i]! > listing.blockBytes || extrasOff[i]! > extrasOff[i + 1]!) return null;
  let rows = 0;
  let end = 0;
  for (const g of listing.groups) {
    if (!Array.isArray(g) || typeof g[0] !== 'string' || g[2] !== rows || !(g[3] > 0) || !(end <= g[4] && g[4] <= g[5]) || g[5] > listing.blockBytes || typeof g[6] !== 'number') return null;
    rows += g[3];
    end = g[5];
  }
  if (rows !== listing.candidates) return null;
  const block = src.whole ? wholeBlock(src.whole, blockAt) : src.slices ? slicedBlock(src, blockAt, listing.groups) : lazyBlock(src, blockAt, listing.groups);
  return {
    buf: src.whole,
    ...block,
    head,
    count,
    columnsStart,
    columnsEnd,
    at: new Float64Array(sortTimes.buffer),
    extrasOff,
    rowStart,
    rowEnd,
    sources,
    extrasAt,
    blockAt,
    firstAt,
  };
}

/**
 * The listing block read from the file as far as it is used: up to the end of the group holding
 * the bytes asked for (at least twice what was read before, so a whole listing costs a few
 * reads), each group checked against its CRC as it arrives. The reads land in one buffer of the
 * block's size, made at the first read: pages never written are never resident, so a `--limit 50`
 * listing holds what it read, and a whole listing copies nothing twice (a Buffer.concat at each
 * doubling copied everything read before: ~2× the block, the largest part of a warm listing's
 * reading; bench/README.md, issue 15 seventh sitting).
 */
function lazyBlock(src: LayoutSource, blockAt: number, groups: readonly GroupRef[]): BlockReads {
  let block: Buffer | null = null;
  const grow = growingBlock(src, blockAt, groups, (loaded, upTo) => {
    block ??= Buffer.allocUnsafe(blockBytes(groups));
    const into = block.subarray(loaded, upTo);
    const got = src.readInto ? src.readInto(blockAt + loaded, into) : src.read(blockAt + loaded, into.length).copy(into);
    if (got !== into.length) throw new IndexDamagedError('the listing block is short');
    return (from, to) => crc32(block!.subarray(from, to));
  });
  return oneBufferBlock((start, end) => {
    grow(end);
    return block ? block.subarray(start, end) : Buffer.alloc(0);
  });
}

/**
 * The listing block of a source sealed in pieces, kept as the opened pieces themselves (views of
 * them in block order): a whole listing deciphers each piece once and copies none of them (the
 * copy into one block buffer was 5 ms of a 20,000-candidate warm listing; bench/README.md, issue
 * 17). Read as far as used and checked group by group, as lazyBlock.
 */
function slicedBlock(src: LayoutSource, blockAt: number, groups: readonly GroupRef[]): BlockReads {
  const parts: Buffer[] = [];
  const partEnds: number[] = []; // each part's end, as a block offset
  const grow = growingBlock(src, blockAt, groups, (loaded, upTo) => {
    let at = loaded;
    for (const slice of src.slices!(blockAt + loaded, upTo - loaded)) {
      if (slice.length === 0) continue;
      parts.push(slice);
      partEnds.push((at += slice.length));
    }
    if (at !== upTo) throw new IndexDamagedError('the listing block is short');
    return (from, to) => viewsOf(from, to).reduce(sum, 0);
  });
  /** Views of [start, end) within `parts` (loaded already). */
  const viewsOf = (start: number, end: number): Buffer[] => {
    const out: Buffer[] = [];
    if (start >= end) return out;
    let lo = 0;
    let hi = partEnds.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (partEnds[mid]! <= start) lo = mid + 1;
      else hi = mid;
    }
    for (let p = lo; p < parts.length && start < end; p++) {
      const partAt = partEnds[p]! - parts[p]!.length;
      const to = Math.min(end, partEnds[p]!);
      out.push(parts[p]!.subarray(start - partAt, to - partAt));
      start = to;
    }
    return out;
  };
  const blockParts = (start: number, end: number) => {
    grow(end);
    return viewsOf(start, end);
  };
  return {
    block: (start, end) => {
      const views = blockParts(start, end);
      return views.length === 1 ? views[0]! : Buffer.concat(views, end - start);
    },
    blockParts,
  };
}

export type BlockReads = Pick<ReadLayout, 'block' | 'blockParts'>;

/** The block reads of a block held in one buffer (read by `block`): every range is one part. */
export function oneBufferBlock(block: (start: number, end: number) => Buffer): BlockReads {
  return { block, blockParts: (start, end) => [block(start, end)] };
}

function wholeBlock(whole: Buffer, blockAt: number): BlockReads {
  return oneBufferBlock((start, end) => whole.subarray(blockAt + start, blockAt + end));
}

function blockBytes(groups: readonly GroupRef[]): number {
  return groups.length > 0 ? groups[groups.length - 1]![5] : 0;
}

/**
 * The growth policy both lazy blocks share: a read past what is loaded loads up to the end of the
 * group holding it (at least twice what was loaded before, so a whole listing costs a few reads),
 * then checks every group now whole against its CRC. `load(loaded, upTo)` reads those bytes and
 * returns the CRC of a block range. Returns `grow(end)`, which throws IndexDamagedError.
 */
function growingBlock(src: LayoutSource, blockAt: number, groups: readonly GroupRef[], load: (loaded: number, upTo: number) => (from: number, to: number) => number): (end: number) => void {
  const total = blockBytes(groups);
  let loaded = 0;
  let checked = 0; // groups whose bytes are loaded and matched their CRC
  // Damage found once is found for good: the bytes past the last checked group were loaded
  // unchecked, so no later call may hand them out. A group table claiming more than the file
  // holds is damage too, not a buffer to allocate.
  let damage: IndexDamagedError | null = blockAt + total > src.size ? new IndexDamagedError('the listing block is short') : null;
  const grow = (end: number) => {
    if (end <= loaded) return;
    let g = checked;
    while (g < groups.length && (groups[g]![5] < end || groups[g]![5] < 2 * loaded)) g++;
    const upTo = g < groups.length ? groups[g]![5] : total;
    const crcOf = load(loaded, upTo);
    loaded = upTo;
    for (; checked < groups.length && groups[checked]![5] <= loaded; checked++) {
      const [cwd, , , , from, to, crc] = groups[checked]!;
      if (crcOf(from, to) !== crc) throw new IndexDamagedError(`the group of ${cwd}`);
    }
    if (end > loaded) throw new IndexDamagedError('a row past the listing block');
  };
  return (end) => {
    if (damage) throw damage;
    try {
      grow(end);
    } catch (error) {
      if (error instanceof IndexDamagedError) damage = error;
      throw error;
    }
  };
}
