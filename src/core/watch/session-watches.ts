import { randomUUID } from 'node:crypto';
import { relative } from 'node:path';
import { watchFiles, type FileWatch } from './file-watcher.js';

/** Open watches per host: each open Changes tab holds one; more means a leak, refused with a code. */
export const MAX_OPEN_WATCHES = 64;

export interface WatchTarget {
  /** The directory the paths are relative to (the repository root on this machine). */
  root: string;
  /** Absolute paths of the handed-off files. */
  files: string[];
}

export interface SessionWatchesOptions {
  /** The files of a session to watch, or null when it has no workspace to watch. */
  resolve: (sessionId: string) => Promise<WatchTarget | null>;
  /** Told which files (relative to the root) changed on disk. */
  onDrift: (sessionId: string, paths: string[]) => void;
  debounceMs?: number;
}

interface Shared {
  watch: FileWatch;
  root: string;
  holders: Set<string>;
}

/**
 * The host's watches of handed-off files, one file watch per session shared by every open view of
 * it: `start` when a Changes tab opens, `stop` when it closes, `close` with the host.
 */
export function createSessionWatches(options: SessionWatchesOptions) {
  const bySession = new Map<string, Promise<Shared | null>>();
  const sessionOf = new Map<string, string>();

  async function open(sessionId: string): Promise<Shared | null> {
    const target = await options.resolve(sessionId);
    if (!target || target.files.length === 0) return null;
    const watch = watchFiles(target.files, (changed) => options.onDrift(sessionId, changed.map((p) => relative(target.root, p))), { debounceMs: options.debounceMs });
    await watch.ready;
    return { watch, root: target.root, holders: new Set() };
  }

  return {
    /** Starts (or joins) the watch of a session's handed-off files; resolves once changes are seen. */
    async start(sessionId: string): Promise<{ watchId: string; watching: number }> {
      if (sessionOf.size >= MAX_OPEN_WATCHES) {
        throw Object.assign(new Error(`${MAX_OPEN_WATCHES} watches are open already; close a Changes tab first.`), { code: 'TOO_MANY_WATCHES' });
      }
      let shared = bySession.get(sessionId);
      if (!shared) {
        shared = open(sessionId);
        bySession.set(sessionId, shared);
        shared.catch(() => bySession.delete(sessionId));
      }
      const watch = await shared;
      const watchId = `w-${randomUUID()}`;
      sessionOf.set(watchId, sessionId);
      watch?.holders.add(watchId);
      return { watchId, watching: watch?.watch.paths.length ?? 0 };
    },
    /** Stops one holder; the file watch closes with its last holder. Unknown ids are a no-op (idempotent). */
    async stop(watchId: string): Promise<void> {
      const sessionId = sessionOf.get(watchId);
      if (sessionId === undefined) return;
      sessionOf.delete(watchId);
      const shared = await bySession.get(sessionId);
      if (!shared) {
        if (![...sessionOf.values()].includes(sessionId)) bySession.delete(sessionId);
        return;
      }
      shared.holders.delete(watchId);
      if (shared.holders.size === 0) {
        bySession.delete(sessionId);
        await shared.watch.close();
      }
    },
    /** How many file watches are open (for tests and `doctor`). */
    openCount(): number {
      return bySession.size;
    },
    async close(): Promise<void> {
      const all = await Promise.all([...bySession.values()].map((p) => p.catch(() => null)));
      bySession.clear();
      sessionOf.clear();
      await Promise.all(all.map((s) => s?.watch.close()));
    },
  };
}
export type SessionWatches = ReturnType<typeof createSessionWatches>;
