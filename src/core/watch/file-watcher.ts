import { basename, dirname, join, resolve } from 'node:path';
import { watchDirectory, type DirWatch } from './dir-watch.js';
import { createPathBatch } from './path-batch.js';

/** Changes closer together than this are reported once (editors write a file in several steps). */
export const WATCH_DEBOUNCE_MS = 150;
/** More files than this are not watched one by one: the watch would cost more than a re-check. */
export const MAX_WATCHED_FILES = 2_000;

export interface FileWatch {
  /** Absolute paths being watched. */
  readonly paths: readonly string[];
  /** Resolves once the watch is ready (changes made after this are reported). */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

export interface WatchFilesOptions {
  debounceMs?: number;
  onError?: (error: Error) => void;
}

/**
 * Watches a set of files (absolute paths) and reports which of them changed, were created or were
 * removed, batched per debounce window. The parent directories are watched, not the files, so a
 * file that an editor replaces by rename, or that is deleted and created again, is still seen.
 *
 * One node:fs watch per parent directory, whose events name the child: a name not asked for costs
 * a Set look-up. (chokidar, used here before, put a watch on every file of the directory and
 * re-listed and lstat()ed the whole directory on the main thread at each event: the host's watch
 * of `dataDir/index.json` did that for every temp file, event line and rename a handoff makes in
 * the data directory — bench/README.md, "Seventeenth sitting".) A directory that is not there yet,
 * or is removed and made again, is waited for on its nearest existing ancestor (dir-watch.ts), as
 * chokidar did; a platform that gives no name reports every watched file of it.
 */
export function watchFiles(files: readonly string[], onChange: (changed: string[]) => void, options: WatchFilesOptions = {}): FileWatch {
  if (files.length > MAX_WATCHED_FILES) {
    throw Object.assign(new Error(`Refusing to watch ${files.length} files (limit ${MAX_WATCHED_FILES}).`), { code: 'TOO_MANY_FILES' });
  }
  const wanted = new Set(files.map((f) => resolve(f)));
  const namesByDir = new Map<string, Set<string>>();
  for (const file of wanted) {
    const dir = dirname(file);
    const names = namesByDir.get(dir) ?? new Set<string>();
    names.add(basename(file));
    namesByDir.set(dir, names);
  }
  const debounceMs = options.debounceMs ?? WATCH_DEBOUNCE_MS;
  let closed = false;
  const batch = createPathBatch(debounceMs, onChange);
  const watches: DirWatch[] = [];

  for (const [dir, names] of namesByDir) {
    const watch = watchDirectory(
      dir,
      (name) => {
        if (closed) return;
        if (name === null) for (const each of names) batch.add(join(dir, each));
        else if (names.has(name)) batch.add(join(dir, name));
      },
      (error) => {
        if (!closed) options.onError?.(error);
      },
    );
    watches.push(watch);
  }

  return {
    paths: [...wanted],
    // node:fs's watches are in place once watchDirectory returns.
    ready: Promise.resolve(),
    async close() {
      closed = true;
      batch.close();
      for (const watch of watches) watch.close();
    },
  };
}
