import { FileSessionStore, type OpenStoreOptions } from './session-store.js';
import type { SessionStore } from './types.js';

export { StoreError, isStoreError } from './errors.js';
export type { StoreErrorCode } from './errors.js';
export type { OpenStoreOptions } from './session-store.js';
export type { RecoveryReport } from './message-log.js';
export type * from './types.js';

/**
 * Opens (creating if missing, mkdir -p 0700) the session store at `root`. Refuses a symlinked or
 * foreign-owned root with UNSAFE_STORE; a store written by a newer Baton opens read-only.
 */
export async function openStore(root: string, options: OpenStoreOptions = {}): Promise<SessionStore & FileSessionStore> {
  const store = new FileSessionStore(root, options);
  await store.init();
  return store;
}
