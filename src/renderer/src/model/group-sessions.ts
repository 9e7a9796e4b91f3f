import type { IndexRow } from '../../../shared/session';

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

function newestFirst(a: IndexRow, b: IndexRow): number {
  return timeOf(b.updatedAt) - timeOf(a.updatedAt) || a.id.localeCompare(b.id);
}

/**
 * The left pane's model: sessions grouped by working directory, newest first inside a group, and
 * groups ordered by their newest session (ties: by directory, so the order never flickers).
 */
export function groupSessions(rows: readonly IndexRow[]): SessionGroup[] {
  const byCwd = new Map<string, IndexRow[]>();
  for (const row of rows) {
    const key = normalizeCwd(row.cwd);
    const list = byCwd.get(key);
    if (list === undefined) byCwd.set(key, [row]);
    else list.push(row);
  }
  const groups: SessionGroup[] = [];
  for (const [cwd, sessions] of byCwd) {
    sessions.sort(newestFirst);
    groups.push({ cwd, sessions, newestAt: timeOf(sessions[0]?.updatedAt ?? '') });
  }
  groups.sort((a, b) => b.newestAt - a.newestAt || a.cwd.localeCompare(b.cwd));
  return groups;
}

/** Session ids in the order the list shows them: what ↑/↓ walk through. */
export function flattenGroups(groups: readonly SessionGroup[]): string[] {
  return groups.flatMap((group) => group.sessions.map((session) => session.id));
}
