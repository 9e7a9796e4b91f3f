import { dirname, resolve } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
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
 * This is the one watcher module of Baton (chokidar 5: pure JS, no native build for Electron).
 */
export function watchFiles(files: readonly string[], onChange: (changed: string[]) => void, options: WatchFilesOptions = {}): FileWatch {
  if (files.length > MAX_WATCHED_FILES) {
    throw Object.assign(new Error(`Refusing to watch ${files.length} files (limit ${MAX_WATCHED_FILES}).`), { code: 'TOO_MANY_FILES' });
  }
  const wanted = new Set(files.map((f) => resolve(f)));
  const dirs = [...new Set([...wanted].map((f) => dirname(f)))];
  const debounceMs = options.debounceMs ?? WATCH_DEBOUNCE_MS;
  let closed = false;
  const batch = createPathBatch(debounceMs, onChange);
  const note = (path: string) => {
    const full = resolve(path);
    if (!wanted.has(full) || closed) return;
    batch.add(full);
  };

  const watcher: FSWatcher = watch(dirs, { depth: 0, ignoreInitial: true, persistent: true });
  watcher.on('add', note).on('change', note).on('unlink', note);
  watcher.on('error', (error) => options.onError?.(error as Error));
  const ready = new Promise<void>((done) => watcher.once('ready', () => done()));

  return {
    paths: [...wanted],
    ready,
    async close() {
      closed = true;
      batch.close();
      await watcher.close();
    },
  };
}
