import { join } from 'node:path';
import { nodeDurableFs, type DurableFs } from '../fs/index.js';
import { ARCHIVED_DIR, SESSIONS_DIR } from '../store/layout.js';
import type { SessionStore } from '../store/types.js';

/** How many sessions `baton stats` and the stats panel name as the largest. */
export const LARGEST_SESSIONS = 5;

/** Bytes under a path (files only, symlinks not followed); 0 when it does not exist. */
export async function pathBytes(path: string, fs: DurableFs = nodeDurableFs): Promise<number> {
  let st;
  try {
    st = await fs.lstat(path);
  } catch {
    return 0;
  }
  if (!st.isDirectory) return st.isFile ? st.size : 0;
  let total = 0;
  for (const name of await fs.readdir(path).catch(() => [] as string[])) total += await pathBytes(join(path, name), fs);
  return total;
}

export interface SessionUsage {
  id: string;
  title: string;
  state: 'live' | 'archived';
  bytes: number;
  messageCount: number;
}

export interface RetentionStats {
  live: { sessions: number; bytes: number };
  archived: { sessions: number; bytes: number };
  largest: SessionUsage[];
}

/** Disk use per state and the largest sessions (issue 21's retention view), from the index and a walk of each session directory. */
export async function retentionStats(store: SessionStore, largest = LARGEST_SESSIONS): Promise<RetentionStats> {
  const rows = await store.list({ includeArchived: true });
  const usage: SessionUsage[] = [];
  for (const row of rows) {
    const state = row.archived ? 'archived' : 'live';
    const bytes = await pathBytes(join(store.root, state === 'archived' ? ARCHIVED_DIR : SESSIONS_DIR, row.id));
    usage.push({ id: row.id, title: row.title, state, bytes, messageCount: row.messageCount });
  }
  const sum = (state: SessionUsage['state']) => usage.filter((u) => u.state === state).reduce((acc, u) => ({ sessions: acc.sessions + 1, bytes: acc.bytes + u.bytes }), { sessions: 0, bytes: 0 });
  return { live: sum('live'), archived: sum('archived'), largest: [...usage].sort((a, b) => b.bytes - a.bytes).slice(0, largest) };
}

export { formatBytes } from '../../shared/format-bytes.js';
