import type { IndexRow } from '../../../shared/session';

/** Which tool a row came from; `baton` also covers sessions from any other client. */
export type SourceFilter = 'all' | 'baton' | 'claude' | 'codex';
export type DateFilter = 'all' | 'today' | '7d' | '30d';

export interface RowFilter {
  /** Free text: every whitespace-separated term must appear in the title, directory or branch. */
  query: string;
  source: SourceFilter;
  /** null: any branch. */
  branch: string | null;
  date: DateFilter;
}

export const NO_FILTER: RowFilter = { query: '', source: 'all', branch: null, date: 'all' };

const DAY_MS = 24 * 60 * 60_000;

export function isFiltering(filter: RowFilter): boolean {
  return filter.query.trim().length > 0 || filter.source !== 'all' || filter.branch !== null || filter.date !== 'all';
}

/** The lowercased text a search looks in, computed once per row object (rows are immutable answers). */
const haystacks = new WeakMap<IndexRow, string>();
function haystackOf(row: IndexRow): string {
  let text = haystacks.get(row);
  if (text === undefined) {
    text = `${row.title}\n${row.cwd}\n${row.branch ?? ''}`.toLowerCase();
    haystacks.set(row, text);
  }
  return text;
}

export function searchTerms(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter((term) => term.length > 0);
}

/** The earliest updatedAt (ms) the date filter lets through; local midnight for "today". */
export function dateFloor(date: DateFilter, now: number): number {
  switch (date) {
    case 'all':
      return Number.NEGATIVE_INFINITY;
    case 'today': {
      const midnight = new Date(now);
      midnight.setHours(0, 0, 0, 0);
      return midnight.getTime();
    }
    case '7d':
      return now - 7 * DAY_MS;
    case '30d':
      return now - 30 * DAY_MS;
  }
}

function sourceMatches(row: IndexRow, source: SourceFilter): boolean {
  if (source === 'all') return true;
  if (source === 'baton') return row.source === 'baton' || row.source === 'other';
  return row.source === source;
}

/** The rows a search and the filters let through, in their original order. */
export function filterRows(rows: readonly IndexRow[], filter: RowFilter, now: number): IndexRow[] {
  if (!isFiltering(filter)) return rows.slice();
  const terms = searchTerms(filter.query);
  const floor = dateFloor(filter.date, now);
  return rows.filter((row) => {
    if (!sourceMatches(row, filter.source)) return false;
    if (filter.branch !== null && row.branch !== filter.branch) return false;
    if (floor !== Number.NEGATIVE_INFINITY) {
      const at = Date.parse(row.updatedAt);
      if (!Number.isFinite(at) || at < floor) return false;
    }
    if (terms.length === 0) return true;
    const haystack = haystackOf(row);
    return terms.every((term) => haystack.includes(term));
  });
}

/** Distinct branches, most used first (ties alphabetical): the branch filter's choices. */
export function branchesOf(rows: readonly IndexRow[]): string[] {
  const counts = new Map<string, number>();
  for (const row of rows) if (row.branch !== null && row.branch.length > 0) counts.set(row.branch, (counts.get(row.branch) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([branch]) => branch);
}
