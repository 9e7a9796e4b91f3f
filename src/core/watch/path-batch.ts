/**
 * Collects changed paths and hands them over as one sorted batch once the changes have been quiet
 * for `debounceMs`: an editor's save or a log append arrives as several events, the listener
 * hears one change. Shared by the file watcher and the tree watcher.
 */
export interface PathBatch {
  add(path: string): void;
  /** How many paths wait for the next batch. */
  readonly size: number;
  /** Forgets what waits, without a batch (the caller rescans instead). */
  drop(): void;
  /** No batch after this. */
  close(): void;
}

export function createPathBatch(debounceMs: number, onBatch: (paths: string[]) => void): PathBatch {
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const flush = () => {
    timer = null;
    if (closed || pending.size === 0) return;
    const batch = [...pending].sort();
    pending = new Set();
    onBatch(batch);
  };
  return {
    add(path) {
      if (closed) return;
      pending.add(path);
      timer ??= setTimeout(flush, debounceMs);
    },
    get size() {
      return pending.size;
    },
    drop() {
      pending = new Set();
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
