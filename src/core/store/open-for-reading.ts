import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DELETING_DIR } from './delete-session.js';
import { ARCHIVED_DIR, RECEIPTS_DIR, SESSIONS_DIR } from './layout.js';
import { readingFs } from './reading-fs.js';
import { FileSessionStore, type OpenStoreOptions } from './session-store.js';
import { openStore } from './index.js';
import type { SessionStore } from './types.js';

export const OPENED_FOR_READING = 'This store was opened to be read (a listing): nothing is written through it.';

/**
 * Opens the store at `root` to read it (a listing: `baton list`, the resume picker's first screen).
 * It refuses what the writer's open refuses (a linked or foreign-owned root or top-level entry:
 * UNSAFE_STORE; a key that cannot be read: KEY_UNAVAILABLE), narrows a mode wider than 0700/0600
 * as that open does, and reads what it reads (readingFs: synchronous reads). It skips what only a
 * writer needs: the directories' mkdir, the sweep of dead writers' temp files, the version probe.
 * Every write through it throws READ_ONLY, so list() never rebuilds or appends to the index.
 *
 * A store the writer's open would change before anything is read is opened by it instead (same
 * options): a data directory not made yet (the full listing's scan writes its caches into it),
 * and a delete a crash interrupted (finished there, so a half-deleted session is never listed).
 */
export async function openStoreForReading(root: string, options: Pick<OpenStoreOptions, 'keyStore'> = {}): Promise<SessionStore & FileSessionStore> {
  if (!readableAsItIs(root)) return openStore(root, options);
  const store = new FileSessionStore(root, { ...options, fs: readingFs(), forReading: { reason: OPENED_FOR_READING } });
  await store.init();
  return store;
}

/** Whether the writer's open would leave the tree as it is: every top directory there and no delete pending. */
function readableAsItIs(root: string): boolean {
  return [SESSIONS_DIR, ARCHIVED_DIR, RECEIPTS_DIR].every((d) => existsSync(join(root, d))) && nothingIn(join(root, DELETING_DIR));
}

/** deleting/ stays once a session was deleted; empty (or absent), no delete is pending and no temp file is left in it. */
function nothingIn(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch (error) {
    // Unreadable: the writer's open meets it too and says so with a typed error.
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}
