import type { IndexRow } from '../../../shared/session';
import type { SessionGroup } from '../../../shared/resume-groups';

/** Fixed heights make windowing a prefix sum: keep them in step with sessions.css. */
export const GROUP_HEADER_HEIGHT = 32;
export const ROW_HEIGHT = 60;

export type ListItem =
  | { kind: 'group'; key: string; cwd: string; count: number; collapsed: boolean }
  | { kind: 'row'; key: string; cwd: string; row: IndexRow };

/** The flat list the virtual list draws: each group's header, then its rows unless it is collapsed. */
export function listItems(groups: readonly SessionGroup[], collapsed: ReadonlySet<string>): ListItem[] {
  const items: ListItem[] = [];
  for (const group of groups) {
    const isCollapsed = collapsed.has(group.cwd);
    items.push({ kind: 'group', key: `group:${group.cwd}`, cwd: group.cwd, count: group.sessions.length, collapsed: isCollapsed });
    if (isCollapsed) continue;
    for (const row of group.sessions) items.push({ kind: 'row', key: row.id, cwd: group.cwd, row });
  }
  return items;
}

export function heightOf(item: ListItem): number {
  return item.kind === 'group' ? GROUP_HEADER_HEIGHT : ROW_HEIGHT;
}
