import { isAbsolute, resolve, sep } from 'node:path';
import { normalizeCwd, timeOf } from '../../shared/resume-groups.js';
import type { IndexRow } from '../../shared/session.js';
import type { IndexEntry } from './candidate-index.js';

/**
 * One row of a resume listing, whatever it comes from (Baton's index or a tool's log), with the
 * keys the grouping needs and its JSON text produced only when printed: at 20,000 candidates the
 * listing orders small records and copies pre-serialized rows, it does not rebuild objects.
 */
export interface ListItem {
  /** Directory as grouped (normalizeCwd). */
  cwd: string;
  at: number;
  id: string;
  source: string;
  text(): string;
  /** Copies text()'s UTF-8 bytes into target at `at` (when the item holds them as bytes): the offset after them, or -1 when they do not fit. */
  copyRow?(target: Buffer, at: number): number;
  /** Parsed row, for people's output (a terminal screen is a few dozen rows). */
  row(): IndexRow;
}

export interface ListGroup {
  cwd: string;
  newestAt: number;
  /** Rows in display order (a group read from the candidate index makes them on first use). */
  items: ListItem[];
  /** Rows in the group without making them (the candidate index knows it). */
  size?: number;
  /** The first n rows as a group (without making the others). */
  head?(n: number): ListGroup;
  /** The group's JSON exactly as writeListJson prints it, in one or more parts, when stored pre-rendered (the candidate index). */
  rendered?(): readonly Buffer[];
}

/** Rows in a group. */
export function sizeOf(group: ListGroup): number {
  return group.size ?? group.items.length;
}

export interface ListFilter {
  /** Only sessions in this directory or below it. */
  cwd?: string;
  /** 'claude', 'codex' or 'baton' (Baton's own sessions, whatever tool they came from). */
  source?: string;
}

export function itemOfRow(row: IndexRow): ListItem {
  return { cwd: normalizeCwd(row.cwd), at: timeOf(row.updatedAt), id: row.id, source: 'baton', text: () => JSON.stringify(row), row: () => row };
}

/** An index entry is a listing item as it is (no wrapper object per candidate). */
export function itemOfEntry(entry: IndexEntry): ListItem {
  return entry;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Order inside a group: newest first, then by id. */
export function compareItems(a: ListItem, b: ListItem): number {
  return b.at - a.at || compareText(a.id, b.id);
}

/** Order of groups: newest first, then by directory. */
export function compareGroups(a: ListGroup, b: ListGroup): number {
  return b.newestAt - a.newestAt || compareText(a.cwd, b.cwd);
}

/** The directory filter as given on the command line: relative to the caller's cwd, no trailing separator. */
export function cwdFilterOf(dir: string, base = process.cwd()): string {
  return normalizeCwd(isAbsolute(dir) ? dir : resolve(base, dir));
}

export function underDir(cwd: string, dir: string): boolean {
  return cwd === dir || cwd.startsWith(dir.endsWith(sep) || dir.endsWith('/') ? dir : `${dir}${sep}`) || (sep !== '/' && cwd.startsWith(`${dir}/`));
}

/**
 * Groups by directory, newest group first and newest first inside a group: the order
 * groupSessions (shared/resume-groups.ts) gives the UI, so the CLI and the UI agree row for row.
 */
export function groupItems(items: readonly ListItem[], filter: ListFilter = {}): ListGroup[] {
  const byCwd = new Map<string, ListItem[]>();
  for (const item of items) {
    if (filter.source && item.source !== filter.source) continue;
    if (filter.cwd && !underDir(item.cwd, filter.cwd)) continue;
    const list = byCwd.get(item.cwd);
    if (list === undefined) byCwd.set(item.cwd, [item]);
    else list.push(item);
  }
  const groups: ListGroup[] = [];
  for (const [cwd, list] of byCwd) {
    list.sort(compareItems);
    groups.push({ cwd, items: list, newestAt: list[0]?.at ?? 0 });
  }
  groups.sort(compareGroups);
  return groups;
}

/** The first `limit` sessions in display order, as groups; counts stay those of the whole listing. */
export function limitGroups(groups: readonly ListGroup[], limit: number): ListGroup[] {
  const out: ListGroup[] = [];
  let left = limit;
  for (const g of groups) {
    if (left <= 0) break;
    const size = sizeOf(g);
    out.push(size <= left ? g : g.head ? g.head(left) : { cwd: g.cwd, newestAt: g.newestAt, items: g.items.slice(0, left) });
    left -= size;
  }
  return out;
}

export function countItems(groups: readonly ListGroup[]): number {
  return groups.reduce((n, g) => n + sizeOf(g), 0);
}
