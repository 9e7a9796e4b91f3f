import type { SessionGroup } from '../../../shared/resume-groups';

/**
 * `next` in the order of `shown`, so the list does not re-sort under the pointer: groups and rows
 * already on screen keep their places (with fresh contents), new rows go to the end of their group
 * and new groups to the end of the list, removed ones disappear. The real order returns when the
 * pointer leaves (the caller then shows `next` itself).
 */
export function keepOrder(shown: readonly SessionGroup[], next: readonly SessionGroup[]): SessionGroup[] {
  const nextByCwd = new Map(next.map((g) => [g.cwd, g]));
  const placed = new Set<string>();
  const out: SessionGroup[] = [];
  const ordered = (group: SessionGroup, before: SessionGroup | undefined): SessionGroup => {
    if (before === undefined) return group;
    const fresh = new Map(group.sessions.map((row) => [row.id, row]));
    const kept = before.sessions.filter((row) => fresh.has(row.id)).map((row) => fresh.get(row.id)!);
    const keptIds = new Set(kept.map((row) => row.id));
    return { ...group, sessions: [...kept, ...group.sessions.filter((row) => !keptIds.has(row.id))] };
  };
  for (const before of shown) {
    const group = nextByCwd.get(before.cwd);
    if (group === undefined) continue;
    out.push(ordered(group, before));
    placed.add(group.cwd);
  }
  for (const group of next) if (!placed.has(group.cwd)) out.push(group);
  return out;
}
