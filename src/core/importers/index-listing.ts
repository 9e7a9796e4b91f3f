import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { fdSource, sealedSource } from './index-file-source.js';
import type { IndexRow } from '../../shared/session.js';
import { CANDIDATE_INDEX_VERSION, verifiedFileOf, type IndexMeta } from './candidate-index.js';
import { indexedFilesOf, type IndexedFiles } from './indexed-files.js';
import { bufferSource, IndexDamagedError, readLayout, SOURCE_CODES, type LayoutSource, type ListingHead, type ReadLayout } from './candidate-index-layout.js';
import { compareGroups, compareItems, groupItems, underDir, type ListFilter, type ListGroup, type ListItem } from './candidate-list.js';

/**
 * A listing read straight from the candidate index (issue 15): the head is parsed, nothing else.
 * Groups are the index's own, in display order, each with its pre-rendered JSON; rows are made
 * only for what is shown (`readRows`), and a row's JSON is parsed only for people's output.
 */
export interface IndexListing {
  meta: IndexMeta;
  head: ListingHead;
  /** The index file's mtime (the file system's clock) and the last full scan's confirmation (this machine's clock). */
  writtenAt: number;
  verifiedAt: number;
  /** The candidates' groups, newest first. */
  groups: ListGroup[];
  /** Rows [from, to) of the listing, in display order (0 ≤ from ≤ to ≤ head.candidates). */
  readRows(from: number, to: number): ListItem[];
  /** Every indexed file's tool, size and mtime by path, from the columns (a check of every file: list-indexed.ts); null when they do not decode. */
  files(): IndexedFiles | null;
  /** Releases the file a lazy listing reads from (what was read stays readable); idempotent. */
  close(): void;
}

/** One candidate row: its sort keys from the binary columns, its JSON a slice of the listing block. */
class RowItem implements ListItem {
  #row: IndexRow | null = null;
  readonly at: number;
  readonly source: string;
  constructor(
    private readonly layout: ReadLayout,
    private readonly r: number,
    readonly cwd: string,
  ) {
    this.at = layout.at[r]!;
    this.source = SOURCE_CODES[layout.sources[r]!] ?? 'claude';
  }
  get id(): string {
    return this.row().id;
  }
  bytes(): Buffer {
    return this.layout.block(this.layout.rowStart[this.r]!, this.layout.rowEnd[this.r]!);
  }
  text(): string {
    return this.bytes().toString('utf8');
  }
  copyRow(target: Buffer, at: number): number {
    const bytes = this.bytes();
    if (at + bytes.length > target.length) return -1;
    return at + bytes.copy(target, at);
  }
  row(): IndexRow {
    return (this.#row ??= JSON.parse(this.text()) as IndexRow);
  }
}

class IndexGroup implements ListGroup {
  #items: ListItem[] | null = null;
  constructor(
    private readonly listing: { readRows(from: number, to: number, cwd?: string): ListItem[]; layout: ReadLayout },
    readonly cwd: string,
    readonly newestAt: number,
    private readonly first: number,
    readonly size: number,
    private readonly start: number,
    private readonly end: number,
  ) {}
  get items(): ListItem[] {
    return (this.#items ??= this.listing.readRows(this.first, this.first + this.size, this.cwd));
  }
  head(n: number): ListGroup {
    return { cwd: this.cwd, newestAt: this.newestAt, items: this.listing.readRows(this.first, this.first + Math.min(n, this.size), this.cwd) };
  }
  rendered(): Buffer[] {
    return this.listing.layout.blockParts(this.start, this.end);
  }
}

/**
 * Decodes a listing from an index file's bytes (or positional reads of it); null for anything but
 * a current, whole index. Read lazily, a group's bytes are read and checked on first use: a
 * damaged group throws IndexDamagedError (prepareListing finds it before anything is printed).
 */
export function listingOfIndex(source: Buffer | LayoutSource, writtenAt: number, verifiedAt: number): IndexListing | null {
  const layout = readLayout(source, CANDIDATE_INDEX_VERSION);
  if (!layout) return null;
  const h = layout.head;
  // The row's directory is its group's: found by the group table when rows are read by range.
  const groupAt = (r: number) => {
    let lo = 0;
    let hi = h.listing.groups.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (h.listing.groups[mid]![2] <= r) lo = mid;
      else hi = mid - 1;
    }
    return h.listing.groups[lo]![0];
  };
  const readRows = (from: number, to: number, cwd?: string): ListItem[] => {
    const end = Math.min(to, h.listing.candidates);
    const out: ListItem[] = [];
    for (let r = Math.max(0, from); r < end; r++) out.push(new RowItem(layout, r, cwd ?? groupAt(r)));
    return out;
  };
  const reader = { readRows, layout };
  return {
    meta: { folders: h.folders, folderMtimes: h.folderMtimes, scope: h.scope, unindexed: h.unindexed, skipped: h.skipped ?? {} },
    head: h.listing,
    writtenAt,
    verifiedAt,
    groups: h.listing.groups.map(([cwd, newestAt, first, rows, start, end]) => new IndexGroup(reader, cwd, newestAt, first, rows, start, end)),
    readRows: (from, to) => readRows(from, to),
    files: () => indexedFilesOf(layout, Buffer.isBuffer(source) ? bufferSource(source) : source),
    close: () => (Buffer.isBuffer(source) ? undefined : source.close?.()),
  };
}

/**
 * Reads an index file for a listing: only the head, the arrays and the groups used (positional
 * reads; a full listing reads the block, never the columns and extras); from an encrypted store
 * (`sealed`), the same bytes, each piece holding them opened with the store's key. Synchronous:
 * this is a CLI's first and only job. Null when missing or not a current, whole index.
 */
export function readIndexListing(file: string, sealed = false): IndexListing | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  let keepOpen = false;
  try {
    const stat = fstatSync(fd);
    let verified = '';
    try {
      verified = readFileSync(verifiedFileOf(file), 'utf8').trim();
    } catch {
      // never confirmed: not trusted (verifiedAt 0)
    }
    const verifiedAt = /^\d{1,16}$/.test(verified) ? Number(verified) : 0;
    const source = (sealed && sealedSource(file, fd, stat.size)) || fdSource(fd, stat.size);
    const listing = listingOfIndex(source, stat.mtimeMs, verifiedAt);
    // The file stays open while the listing reads its groups, until close().
    keepOpen = listing !== null;
    return listing;
  } catch {
    return null; // unreadable, or sealed with another key: the scan rebuilds it
  } finally {
    if (!keepOpen) closeSync(fd);
  }
}

/**
 * Reads and checks every byte `groups` will print, before any is printed: false when a group of
 * the index is damaged (the caller falls back to the scan), so a listing never stops mid-stream.
 */
export function prepareListing(groups: readonly ListGroup[]): boolean {
  try {
    for (const g of groups) {
      if (g.rendered) g.rendered();
      else for (const item of g.items) item.text();
    }
    return true;
  } catch (error) {
    if (error instanceof IndexDamagedError) return false;
    throw error;
  }
}

/**
 * The listing `groupItems` would give for the index's candidates plus `rows` (Baton's own
 * sessions), filtered: the index's groups are kept as they are (pre-rendered) unless a Baton
 * session shares their directory or a tool filter drops some of their rows.
 */
export function groupsWithIndex(listing: IndexListing, rows: readonly ListItem[], filter: ListFilter = {}): ListGroup[] {
  const own = groupItems(rows, filter);
  if (filter.source === 'baton') return own;
  const ownByCwd = new Map(own.map((g) => [g.cwd, g]));
  const out: ListGroup[] = [];
  let reordered = false;
  for (const g of listing.groups) {
    if (filter.cwd && !underDir(g.cwd, filter.cwd)) continue;
    const extra = ownByCwd.get(g.cwd);
    if (!extra && !filter.source) {
      out.push(g);
      continue;
    }
    const items = filter.source ? g.items.filter((i) => i.source === filter.source) : [...g.items];
    if (extra) {
      items.push(...extra.items);
      items.sort(compareItems);
      ownByCwd.delete(g.cwd);
    }
    // A Baton session or a dropped newest row can move the group.
    reordered = true;
    if (items.length > 0) out.push({ cwd: g.cwd, newestAt: items[0]!.at, items });
  }
  if (ownByCwd.size > 0 || reordered) {
    out.push(...ownByCwd.values());
    out.sort(compareGroups);
  }
  return out;
}
