import { join } from 'node:path';
import { nodeDurableFs, type DurableFs } from '../fs/index.js';
import { importersCacheFile } from '../paths.js';
import { RELAY_CONFIG_FILE } from '../relay/config.js';
import { SEARCH_INDEX_FILE } from '../search/search-service.js';
import { EVENTS_FILE, HOSTED_HANDOFFS_DIR, RECEIPTS_DIR } from '../store/layout.js';
import type { SessionStore } from '../store/types.js';
import { pathBytes } from './disk-usage.js';

/**
 * `baton purge` and Settings → "Remove all data": every session (live and archived, each through
 * the store's crash-safe delete), then receipts, events, caches, tasks and the relay settings. What
 * stays: this device's keys and pairings (device/), the host policy and the install records, so
 * the data directory is empty of sessions but still a valid, paired Baton home.
 */
export type PurgeKind = 'session' | 'archived' | 'receipts' | 'events' | 'cache' | 'tasks' | 'relay';

export interface PurgeItem {
  kind: PurgeKind;
  /** Session id, or the file/dir name under the data directory. */
  name: string;
  title?: string;
  bytes: number;
}

export interface PurgePlan {
  dataDir: string;
  items: PurgeItem[];
  bytes: number;
  /** Kept on purpose, for the confirmation. */
  kept: string[];
}

const KEPT = ['device/ (this device\'s keys and pairings)', 'policy.json (host policy)', 'installs/ (what baton install wrote)'];

/** Files and directories besides sessions, by kind; missing ones are left out of the plan. */
function otherPaths(dataDir: string): Array<{ kind: PurgeKind; name: string; path: string }> {
  return [
    { kind: 'receipts', name: `${RECEIPTS_DIR}/`, path: join(dataDir, RECEIPTS_DIR) },
    // Digests of hosted handoffs' requests whose landing did not complete (a deleted session's went with it).
    { kind: 'receipts', name: `${HOSTED_HANDOFFS_DIR}/`, path: join(dataDir, HOSTED_HANDOFFS_DIR) },
    { kind: 'events', name: EVENTS_FILE, path: join(dataDir, EVENTS_FILE) },
    { kind: 'cache', name: 'importers-cache.json', path: importersCacheFile(dataDir) },
    { kind: 'cache', name: SEARCH_INDEX_FILE, path: join(dataDir, SEARCH_INDEX_FILE) },
    { kind: 'tasks', name: 'tasks/', path: join(dataDir, 'tasks') },
    { kind: 'relay', name: RELAY_CONFIG_FILE, path: join(dataDir, RELAY_CONFIG_FILE) },
  ];
}

export async function planPurge(store: SessionStore, dataDir: string, fs: DurableFs = nodeDurableFs): Promise<PurgePlan> {
  const items: PurgeItem[] = [];
  for (const row of await store.list({ includeArchived: true })) {
    items.push({ kind: row.archived ? 'archived' : 'session', name: row.id, title: row.title, bytes: await pathBytes(store.sessionDir(row.id), fs) });
  }
  for (const other of otherPaths(dataDir)) {
    if (!fs.existsSync(other.path)) continue;
    const bytes = await pathBytes(other.path, fs);
    // An empty receipts/ or tasks/ directory is part of a fresh store: nothing to list.
    if (other.name.endsWith('/') && bytes === 0 && (await fs.readdir(other.path).catch(() => [])).length === 0) continue;
    items.push({ kind: other.kind, name: other.name, bytes });
  }
  return { dataDir, items, bytes: items.reduce((n, i) => n + i.bytes, 0), kept: KEPT };
}

/**
 * Removes what the plan lists. Sessions go first and one at a time (a kill leaves each whole or
 * gone); then the other files, each removal atomic. Receipts of deleted sessions already went with them.
 */
export async function purge(store: SessionStore, plan: PurgePlan, fs: DurableFs = nodeDurableFs): Promise<{ removed: PurgeItem[] }> {
  const removed: PurgeItem[] = [];
  for (const item of plan.items) {
    if (item.kind !== 'session' && item.kind !== 'archived') continue;
    await store.delete(item.name).catch((error: unknown) => {
      if ((error as { code?: string }).code !== 'NOT_FOUND') throw error;
    });
    removed.push(item);
  }
  for (const other of otherPaths(plan.dataDir)) {
    const item = plan.items.find((i) => i.name === other.name);
    if (!item) continue;
    if (other.name.endsWith('/')) {
      // Emptied, not removed: the store and the task service expect these directories to exist.
      for (const name of await fs.readdir(other.path).catch(() => [] as string[])) await fs.removeTree(join(other.path, name));
      await fs.fsyncDir(other.path).catch(() => undefined);
    } else {
      await fs.unlink(other.path).catch(() => undefined);
    }
    removed.push(item);
  }
  await fs.fsyncDir(plan.dataDir);
  return { removed };
}
