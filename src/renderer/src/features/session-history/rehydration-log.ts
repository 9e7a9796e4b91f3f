import { RehydrationLogEntry } from '../../../../shared/workspace';

export interface ParsedLog {
  entries: RehydrationLogEntry[];
  /** Entries that did not match the schema (written by a newer Baton, or damaged): counted, not shown. */
  unreadable: number;
}

/**
 * session.json's `rehydrationLog` reaches the UI as an unknown extra field of the session: each
 * entry is parsed on its own so one odd entry does not hide the others. Newest first.
 */
export function readRehydrationLog(value: unknown): ParsedLog {
  if (!Array.isArray(value)) return { entries: [], unreadable: 0 };
  const entries: RehydrationLogEntry[] = [];
  let unreadable = 0;
  for (const item of value) {
    const parsed = RehydrationLogEntry.safeParse(item);
    if (parsed.success) entries.push(parsed.data);
    else unreadable++;
  }
  entries.sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
  return { entries, unreadable };
}
