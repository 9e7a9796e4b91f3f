import type { IndexRow } from './session.js';

/** Resume candidates sharing one working directory. */
export interface SessionGroup {
  /** The working directory, as the first (newest) session spelled it, minus a trailing separator. */
  cwd: string;
  /** Newest first. */
  sessions: IndexRow[];
  /** updatedAt of the newest session, in ms since the epoch (NaN-free: unknown dates count as 0). */
  newestAt: number;
}

/** Sort key of a timestamp; unparseable dates sort after every real one instead of poisoning the sort. */
export function timeOf(iso: string): number {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : 0;
}

/** `/a/b/` and `/a/b` are one directory; `/` and `C:\` stay as they are. */
export function normalizeCwd(cwd: string): string {
  const trimmed = cwd.replace(/[\\/]+$/, '');
  if (trimmed.length === 0) return cwd.length > 0 ? cwd.slice(0, 1) : cwd;
  if (/^[A-Za-z]:$/.test(trimmed)) return `${trimmed}${cwd.charAt(trimmed.length)}`;
  return trimmed;
}

/** Code-unit order: deterministic and much cheaper than localeCompare for ids and paths. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface Entry {
  row: IndexRow;
  at: number;
}

/**
 * The left pane's model: sessions grouped by working directory, newest first inside a group, and
 * groups ordered by their newest session (ties: by id and directory, so the order never flickers).
 * Dates are parsed once per row, not once per comparison: this runs on every `session:changed`.
 */
export function groupSessions(rows: readonly IndexRow[]): SessionGroup[] {
  const byCwd = new Map<string, Entry[]>();
  for (const row of rows) {
    const key = normalizeCwd(row.cwd);
    const entry = { row, at: timeOf(row.updatedAt) };
    const list = byCwd.get(key);
    if (list === undefined) byCwd.set(key, [entry]);
    else list.push(entry);
  }
  const groups: SessionGroup[] = [];
  for (const [cwd, entries] of byCwd) {
    entries.sort((a, b) => b.at - a.at || compareText(a.row.id, b.row.id));
    groups.push({ cwd, sessions: entries.map((entry) => entry.row), newestAt: entries[0]?.at ?? 0 });
  }
  groups.sort((a, b) => b.newestAt - a.newestAt || compareText(a.cwd, b.cwd));
  return groups;
}

/** Session ids in the order the list shows them: what ↑/↓ walk through. */
export function flattenGroups(groups: readonly SessionGroup[]): string[] {
  return groups.flatMap((group) => group.sessions.map((session) => session.id));
}
