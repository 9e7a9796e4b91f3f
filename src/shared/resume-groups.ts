import type { IndexRow } from './session.js';

export interface ResumeGroup {
  cwd: string;
  sessions: IndexRow[];
  /** updatedAt of the newest session in the group. */
  newest: string;
}

/**
 * Resume candidates grouped by working directory: sessions newest first inside a group, groups
 * ordered by their newest session. ISO timestamps compare correctly as strings.
 */
export function groupByCwd(rows: readonly IndexRow[]): ResumeGroup[] {
  const groups = new Map<string, IndexRow[]>();
  for (const row of rows) {
    const list = groups.get(row.cwd);
    if (list) list.push(row);
    else groups.set(row.cwd, [row]);
  }
  const result: ResumeGroup[] = [];
  for (const [cwd, sessions] of groups) {
    sessions.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.id.localeCompare(b.id)));
    result.push({ cwd, sessions, newest: sessions[0]!.updatedAt });
  }
  return result.sort((a, b) => (a.newest < b.newest ? 1 : a.newest > b.newest ? -1 : a.cwd.localeCompare(b.cwd)));
}
