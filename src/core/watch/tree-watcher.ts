import { watch as fsWatch, promises as fsp, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { WATCH_DEBOUNCE_MS } from './file-watcher.js';
import { createPathBatch } from './path-batch.js';

/** Folders watched per tree watch (one inotify watch each); more is reported as an overflow. */
export const MAX_WATCHED_DIRS = 4_096;
/** Changed paths gathered in one debounce window before the batch counts as an overflow (rescan instead). */
export const MAX_PENDING_CHANGES = 5_000;

export interface TreeWatchOptions {
  /** Folder levels below each root that are watched (Claude: 1, Codex: YYYY/MM/DD = 3). */
  depth: number;
  debounceMs?: number;
  /** Defaults to MAX_PENDING_CHANGES (tests lower it to make an overflow). */
  maxPending?: number;
  /** The watch broke (watch limit reached, a root vanished …) or overflowed: the caller must rescan. */
  onTrouble: (reason: string) => void;
}

export interface TreeWatch {
  readonly ready: Promise<void>;
  /** Folders watched now. */
  dirs(): number;
  close(): Promise<void>;
}

/**
 * Watches folder trees (the Claude Code and Codex session roots) and reports the paths inside
 * them that were created, written or removed, batched per debounce window. Only folders are
 * watched, with node:fs directly, as file-watcher.ts does: chokidar put one watch on every file
 * and re-read and lstat()ed a whole folder on each event, which at 10,000 sessions in one project
 * folder means 10,000 watches and a 10,000-entry re-read per appended line. A folder's watch
 * reports its children's writes by name, which is all a session list needs.
 */
export function watchTrees(roots: readonly string[], onChange: (paths: string[]) => void, options: TreeWatchOptions): TreeWatch {
  const debounceMs = options.debounceMs ?? WATCH_DEBOUNCE_MS;
  const maxPending = options.maxPending ?? MAX_PENDING_CHANGES;
  const watchers = new Map<string, FSWatcher>();
  let closed = false;
  let troubled = false;

  const trouble = (reason: string) => {
    if (closed || troubled) return;
    troubled = true; // one report per watch; the caller rescans and starts a new one
    options.onTrouble(reason);
  };
  const batch = createPathBatch(debounceMs, onChange);
  const note = (path: string) => {
    if (closed) return;
    batch.add(path);
    if (batch.size > maxPending) {
      batch.drop();
      trouble(`more than ${maxPending} changes at once`);
    }
  };

  async function watchDir(dir: string, depthLeft: number, announce: boolean): Promise<void> {
    if (closed || watchers.has(dir)) return;
    if (watchers.size >= MAX_WATCHED_DIRS) return trouble(`more than ${MAX_WATCHED_DIRS} folders to watch`);
    let watcher: FSWatcher;
    try {
      watcher = fsWatch(dir, { persistent: false }, (_event, name) => {
        if (name === null) return trouble(`the watch of ${dir} lost track of names`);
        const path = join(dir, name.toString());
        note(path);
        // A new folder (Codex starts one per day): watch it, and report what it already holds.
        if (depthLeft > 0 && !watchers.has(path)) void fsp.stat(path).then((s) => (s.isDirectory() ? watchDir(path, depthLeft - 1, true) : undefined), () => undefined);
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return; // not there (yet): its parent's watch sees it arrive
      return trouble(`cannot watch ${dir} (${code ?? (error as Error).message})`);
    }
    watcher.on('error', (error) => {
      watchers.delete(dir);
      watcher.close();
      // A removed folder ends its own watch; anything else means changes can be missed.
      if ((error as NodeJS.ErrnoException).code !== 'EPERM' && (error as NodeJS.ErrnoException).code !== 'ENOENT') trouble(`the watch of ${dir} failed (${(error as Error).message})`);
    });
    watchers.set(dir, watcher);
    // A leaf folder found at the start holds the session files themselves (10,000 in one Claude
    // project): nothing to watch below it and nothing to announce, so it is not listed.
    if (depthLeft === 0 && !announce) return;
    const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && depthLeft > 0) await watchDir(path, depthLeft - 1, announce);
      else if (announce) note(path);
    }
  }

  const ready = Promise.all(roots.map((root) => watchDir(root, options.depth, false))).then(() => undefined);
  return {
    ready,
    dirs: () => watchers.size,
    async close() {
      closed = true;
      batch.close();
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}
