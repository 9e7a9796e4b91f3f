import { existsSync, watch as fsWatch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

export interface DirWatch {
  close(): void;
}

/**
 * One node:fs watch on a directory's children, kept through the directory's absence: a directory
 * that is not there yet (a folder the other side of a handoff adds), or that is removed and made
 * again (`rm -rf dir && git checkout dir`, a branch switch), is waited for on its nearest existing
 * ancestor and watched again once it is back. node:fs alone would not: a watch on a missing
 * directory fails, and a removed directory's inotify watch ends with one 'rename' event named
 * after the directory itself, then silence.
 *
 * `onEvent(name)` gets the child's name, or null for "any child may have changed": the platform
 * gave no name, the directory went away, or it (re)appeared (its files may predate the new watch).
 */
export function watchDirectory(dir: string, onEvent: (name: string | null) => void, onError: (error: Error) => void): DirWatch {
  const own = basename(dir);
  let current: FSWatcher | null = null;
  let closed = false;

  function stop(): void {
    current?.close();
    current = null;
  }

  /** A watch on `path`, or null when it is missing or not a directory; other failures are the caller's to hear. */
  function tryWatch(path: string, listener: (event: string, name: string | Buffer | null) => void): FSWatcher | null {
    try {
      return fsWatch(path, { persistent: true }, listener);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') onError(error as Error);
      return null;
    }
  }

  function onChild(_event: string, name: string | Buffer | null): void {
    if (closed) return;
    const child = name === null ? null : name.toString();
    // The directory itself removed (or renamed away): its watch is over; wait for it again.
    if ((child === null || child === own) && !existsSync(dir)) {
      stop();
      onEvent(null);
      armOrWait();
      return;
    }
    onEvent(child);
  }

  function armDirectory(): boolean {
    const watcher = tryWatch(dir, onChild);
    if (!watcher) return false;
    stop();
    current = watcher;
    watcher.on('error', (error) => {
      // A removed directory ends its watch with an error on some platforms (EPERM on Windows).
      stop();
      if (closed) return;
      if (existsSync(dir)) onError(error);
      else armOrWait();
    });
    return true;
  }

  /** Watches the directory, or its nearest existing ancestor until the directory appears. */
  function armOrWait(): void {
    if (closed || armDirectory()) return;
    for (let ancestor = dirname(dir), below = dir; ancestor !== below; below = ancestor, ancestor = dirname(ancestor)) {
      const waitingOn = ancestor;
      const watcher = tryWatch(waitingOn, () => {
        if (closed) return;
        if (armDirectory()) onEvent(null);
        // A folder between them made (a/b of a missing a/b/c): wait on it instead.
        else if (nearestExisting(dirname(dir)) !== waitingOn) armOrWait();
      });
      if (!watcher) continue;
      stop();
      current = watcher;
      watcher.on('error', () => {
        stop();
        if (!closed) armOrWait();
      });
      // Made between the failed watch above and this one: no event would tell.
      if (armDirectory()) onEvent(null);
      return;
    }
  }

  armOrWait();
  return {
    close() {
      closed = true;
      stop();
    },
  };
}

/** `path` or its nearest ancestor that exists. */
function nearestExisting(path: string): string {
  let at = path;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return at;
}
