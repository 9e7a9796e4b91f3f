/** Where the collapsed directory groups are remembered (client-local state: never moves with a session). */
export const COLLAPSED_STORAGE_KEY = 'baton.collapsedGroups';
/** Old entries fall off past this many, so the stored list cannot grow without end. */
export const MAX_REMEMBERED_GROUPS = 500;

type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;

/** The remembered set; anything unreadable (garbage, storage disabled) is an empty set, never an error. */
export function loadCollapsed(storage: StorageLike | undefined): Set<string> {
  try {
    const raw = storage?.getItem(COLLAPSED_STORAGE_KEY);
    if (raw === null || raw === undefined) return new Set();
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return new Set();
    return new Set(parsed.filter((value): value is string => typeof value === 'string'));
  } catch {
    return new Set();
  }
}

export function saveCollapsed(storage: StorageLike | undefined, collapsed: ReadonlySet<string>): void {
  const list = [...collapsed].slice(-MAX_REMEMBERED_GROUPS);
  try {
    storage?.setItem(COLLAPSED_STORAGE_KEY, JSON.stringify(list));
  } catch {
    // Storage full or disabled: collapsing still works for this window, it is just not remembered.
  }
}

/** A new set with `cwd` collapsed or expanded (the newest toggle goes last, so it is kept longest). */
export function toggleCollapsed(collapsed: ReadonlySet<string>, cwd: string): Set<string> {
  const next = new Set(collapsed);
  if (next.has(cwd)) next.delete(cwd);
  else next.add(cwd);
  return next;
}
