import { randomUUID } from 'node:crypto';
import { relative } from 'node:path';
import { watchFiles, type FileWatch } from './file-watcher.js';

/** Open watches per host: each open Changes tab holds one; more means a leak, refused with a code. */
export const MAX_OPEN_WATCHES = 64;
/**
 * A view renews its watch within this time or loses it: a window closed without saying so (a
 * crashed renderer, a browser tab killed) does not keep files watched for ever.
 */
export const WATCH_LEASE_MS = 60_000;

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
  leaseMs?: number;
  now?: () => number;
}

interface Shared {
  watch: FileWatch;
  root: string;
}

export interface WatchLease {
  watchId: string;
  /** How many files are watched (0: the session has no workspace here). */
  watching: number;
  /** Renew before this many milliseconds pass. */
  leaseMs: number;
}

/**
 * The host's watches of handed-off files, one file watch per session shared by every open view of
 * it: `start` when a Changes tab opens, `renew` while it stays open, `stop` when it closes, and
 * `close` with the host. Holders whose lease ran out are dropped by a sweep.
 */
export function createSessionWatches(options: SessionWatchesOptions) {
  const leaseMs = options.leaseMs ?? WATCH_LEASE_MS;
  const now = options.now ?? Date.now;
  const bySession = new Map<string, Promise<Shared | null>>();
  const holders = new Map<string, { sessionId: string; expiresAt: number; watching: number }>();

  async function open(sessionId: string): Promise<Shared | null> {
    const target = await options.resolve(sessionId);
    if (!target || target.files.length === 0) return null;
    const watch = watchFiles(target.files, (changed) => options.onDrift(sessionId, changed.map((p) => relative(target.root, p))), { debounceMs: options.debounceMs });
    await watch.ready;
    return { watch, root: target.root };
  }

  /** Closes the session's file watch once no holder is left. */
  async function release(sessionId: string): Promise<void> {
    if ([...holders.values()].some((h) => h.sessionId === sessionId)) return;
    const shared = bySession.get(sessionId);
    if (!shared) return;
    bySession.delete(sessionId);
    await (await shared.catch(() => null))?.watch.close();
  }

  async function sweep(): Promise<void> {
    const at = now();
    const expired = [...holders.entries()].filter(([, h]) => h.expiresAt <= at);
    for (const [id] of expired) holders.delete(id);
    for (const sessionId of new Set(expired.map(([, h]) => h.sessionId))) await release(sessionId);
  }
  const timer = setInterval(() => void sweep().catch(() => undefined), Math.max(10, Math.floor(leaseMs / 2)));
  timer.unref();

  return {
    /** Starts (or joins) the watch of a session's handed-off files; resolves once changes are seen. */
    async start(sessionId: string): Promise<WatchLease> {
      if (holders.size >= MAX_OPEN_WATCHES) {
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
      const watching = watch?.watch.paths.length ?? 0;
      holders.set(watchId, { sessionId, expiresAt: now() + leaseMs, watching });
      return { watchId, watching, leaseMs };
    },
    /** Extends a holder's lease; null when it is unknown or expired (the view starts a new watch). */
    renew(watchId: string): WatchLease | null {
      const holder = holders.get(watchId);
      if (!holder || holder.expiresAt <= now()) return null;
      holder.expiresAt = now() + leaseMs;
      return { watchId, watching: holder.watching, leaseMs };
    },
    /** Stops one holder; the file watch closes with its last holder. Unknown ids are a no-op (idempotent). */
    async stop(watchId: string): Promise<void> {
      const holder = holders.get(watchId);
      if (!holder) return;
      holders.delete(watchId);
      await release(holder.sessionId);
    },
    /** How many file watches are open (for tests and `doctor`). */
    openCount(): number {
      return bySession.size;
    },
    sweep,
    async close(): Promise<void> {
      clearInterval(timer);
      const all = await Promise.all([...bySession.values()].map((p) => p.catch(() => null)));
      bySession.clear();
      holders.clear();
      await Promise.all(all.map((s) => s?.watch.close()));
    },
  };
}
export type SessionWatches = ReturnType<typeof createSessionWatches>;
