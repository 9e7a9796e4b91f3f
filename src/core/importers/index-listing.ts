import { fstatSync, openSync, closeSync, readFileSync } from 'node:fs';
import type { IndexRow } from '../../shared/session.js';
import { openFileFor } from '../store/at-rest/registry.js';
import { CANDIDATE_INDEX_VERSION, verifiedFileOf, type IndexMeta } from './candidate-index.js';
import { readLayout, SOURCE_CODES, type ListingHead, type ReadLayout } from './candidate-index-layout.js';
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
    const l = this.layout;
    return l.buf.subarray(l.blockAt + l.rowStart[this.r]!, l.blockAt + l.rowEnd[this.r]!);
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
  rendered(): Buffer {
    const l = this.listing.layout;
    return l.buf.subarray(l.blockAt + this.start, l.blockAt + this.end);
  }
}

/** Decodes a listing from an index file's bytes; null for anything but a current, whole index. */
export function listingOfIndex(buf: Buffer, writtenAt: number, verifiedAt: number): IndexListing | null {
  const layout = readLayout(buf, CANDIDATE_INDEX_VERSION);
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
  };
}

/**
 * Reads the index file whole (one read: at 20,000 sessions ~10 MB, a few milliseconds) and its
 * confirmation time. Synchronous: this is a CLI's first and only job. Null when missing or
 * not a current, whole index.
 */
export function readIndexListing(file: string): IndexListing | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const writtenAt = fstatSync(fd).mtimeMs;
    const buf = openFileFor(file, readFileSync(fd));
    let verified = '';
    try {
      verified = readFileSync(verifiedFileOf(file), 'utf8').trim();
    } catch {
      // never confirmed: not trusted (verifiedAt 0)
    }
    return listingOfIndex(buf, writtenAt, /^\d{1,16}$/.test(verified) ? Number(verified) : 0);
  } catch {
    return null; // unreadable, or sealed with another key: the scan rebuilds it
  } finally {
    closeSync(fd);
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
