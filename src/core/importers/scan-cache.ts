import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { SCAN_CACHE_VERSION } from './limits.js';
import type { FileState } from './summarize-file.js';
import { isRecord } from './text.js';
import { dropIfStoreTurnedEncrypted, readFileOpened, streamSealerFor } from '../store/at-rest/registry.js';
import { writeAllParts } from '../fs/write-all.js';

/** The scan cache: one FileState per source log, keyed by absolute path. Baton's own file. */
export interface ScanCache {
  version: number;
  entries: Record<string, FileState>;
}

export function emptyCache(): ScanCache {
  return { version: SCAN_CACHE_VERSION, entries: {} };
}

/** A cache's state for a path, or undefined. */
export type StateLookup = (path: string) => FileState | undefined;

/** The lookup of a cache that holds no state: it finds nothing without looking. */
export const NO_STATES: StateLookup = () => undefined;

/**
 * The lookup a scan uses for `cache`; NO_STATES when it is empty, as a cold scan's is. Each
 * lookup by a fresh path string (discovery builds every path) hashes and internalizes it: a
 * cold scan looked each of its 20,000 paths up three or four times in an empty object, ~50-100 ms
 * of its thread before the worker's first task and while it settled (bench/README.md, issue 15,
 * sixteenth sitting).
 */
export function stateLookup(cache: ScanCache): StateLookup {
  const entries = cache.entries;
  for (const _ in entries) return (path) => entries[path];
  return NO_STATES;
}

/**
 * The last cache this process read or wrote, per file, with the file's (size, mtime) then. A
 * long-lived process (the desktop app, `baton serve`) rescans often; re-parsing a few MB of JSON
 * each time would dominate a warm rescan. Another process rewriting the file changes its
 * (size, mtime), which invalidates the memo. Cached states are never mutated (summarizeFile
 * clones before continuing one), so sharing them is safe.
 */
const memo = new Map<string, { size: number; mtimeMs: number; cache: ScanCache }>();

/** Forgets the in-process memo, so the next load parses the file (as a fresh `baton list` would). */
export function forgetScanCacheMemo(): void {
  memo.clear();
}

async function remember(cacheFile: string, cache: ScanCache): Promise<void> {
  try {
    const s = await fsp.stat(cacheFile);
    memo.set(cacheFile, { size: s.size, mtimeMs: s.mtimeMs, cache });
  } catch {
    memo.delete(cacheFile);
  }
}

/** A missing, damaged or other-version cache is an empty one: the scan rebuilds it. */
export async function loadScanCache(cacheFile: string | undefined): Promise<ScanCache> {
  if (!cacheFile) return emptyCache();
  const known = memo.get(cacheFile);
  if (known) {
    const s = await fsp.stat(cacheFile).catch(() => null);
    if (s && s.size === known.size && s.mtimeMs === known.mtimeMs) return known.cache;
    memo.delete(cacheFile);
  }
  try {
    const parsed: unknown = JSON.parse((await readFileOpened(cacheFile)).toString('utf8'));
    if (isRecord(parsed) && parsed.version === SCAN_CACHE_VERSION && isRecord(parsed.entries)) {
      const entries: Record<string, FileState> = {};
      for (const [path, value] of Object.entries(parsed.entries)) if (isFileState(value)) entries[path] = value;
      const cache = { version: SCAN_CACHE_VERSION, entries };
      await remember(cacheFile, cache);
      return cache;
    }
  } catch {
    // Missing or damaged: rebuilt by this scan.
  }
  return emptyCache();
}

function isFileState(value: unknown): value is FileState {
  return (
    isRecord(value) &&
    typeof value.size === 'number' &&
    typeof value.mtimeMs === 'number' &&
    typeof value.checkHash === 'string' &&
    typeof value.fingerprint === 'string' &&
    isRecord(value.digest) &&
    typeof value.digest.endOffset === 'number'
  );
}

/** Text gathered before it is written: the temp file grows a megabyte at a time, not a digest at a time. */
const WRITE_CHUNK_BYTES = 1 << 20;

/** The digest cache written entry by entry (openScanCacheWriter). */
export interface ScanCacheWriter {
  /** Adds one file's state; each path once. */
  add(path: string, state: FileState): Promise<void>;
  /** Makes the entries added the cache: fsync, rename over the old one, fsync the folder. */
  commit(): Promise<void>;
  /** Leaves the old cache as it was and removes the temp file. */
  abort(): Promise<void>;
}

/**
 * The digest cache written while a scan reads: each batch's states are serialized and written as
 * the batch ends, so a cold scan never holds every state's JSON and the whole text at once (the
 * text alone is 80 MB at 100,000 sessions). The text is JSON.stringify of the cache with its
 * entries in the order added. temp file in the same directory → write → fsync → rename →
 * fsync(dir): a reader sees the old cache or the new one, never a mix. The folder is created 0700
 * when missing. In an encrypted store the text is sealed in pieces as it is written
 * (sealed-stream.ts): gathered and sealed whole at the commit, it was three copies of 80 MB at
 * once in a host's cold scan at 100,000 sessions (bench/README.md, issue 17).
 */
export async function openScanCacheWriter(cacheFile: string): Promise<ScanCacheWriter> {
  const dir = dirname(cacheFile);
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, `.${basename(cacheFile)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await fsp.open(temp, 'wx', 0o600);
  // Sealed for the cache's own name (the temp file is renamed over it).
  const sealer = streamSealerFor(cacheFile);
  // Each entry's text is encoded into `chunk` as it is added and dropped: gathered as a string to
  // a megabyte, the texts outlived the young generation, and at 100,000 sessions their 80 MB became
  // old-generation garbage that grew a cold listing's heap (bench/README.md, issue 15, ninth sitting).
  const chunk = Buffer.allocUnsafe(WRITE_CHUNK_BYTES);
  let used = 0;
  let first = true;
  let open = true;
  const writeAll = async (bytes: Uint8Array): Promise<void> => {
    for (let at = 0; at < bytes.length; ) at += (await handle.write(bytes, at, bytes.length - at)).bytesWritten;
  };
  const writeOut = async (bytes: Buffer): Promise<void> => {
    if (!sealer) return writeAll(bytes);
    // The megabyte's sixteen pieces in one call, their parts as they are.
    await writeAllParts(handle, sealer.add(bytes));
  };
  const flush = async (): Promise<void> => {
    if (used > 0) await writeOut(chunk.subarray(0, used));
    used = 0;
  };
  const append = async (text: string): Promise<void> => {
    const length = Buffer.byteLength(text);
    if (used + length > chunk.length) await flush();
    if (length > chunk.length) await writeOut(Buffer.from(text));
    else used += chunk.write(text, used, 'utf8');
  };
  const abort = async (): Promise<void> => {
    if (!open) return;
    open = false;
    await handle.close().catch(() => undefined);
    await fsp.unlink(temp).catch(() => undefined);
  };
  if (sealer) await writeAll(sealer.header).catch(async (error: unknown) => {
    await abort();
    throw error;
  });
  used = chunk.write(`{"version":${JSON.stringify(SCAN_CACHE_VERSION)},"entries":{`);
  return {
    async add(path, state) {
      const text = `${first ? '' : ','}${JSON.stringify(path)}:${JSON.stringify(state)}`;
      first = false;
      try {
        await append(text);
      } catch (error) {
        await abort();
        throw error;
      }
    },
    async commit() {
      try {
        await append('}}');
        await flush();
        // The last piece makes the sealed file whole (it names other tools' sessions: sealed in an encrypted store).
        if (sealer) await writeAll(sealer.end());
        await handle.sync();
        open = false;
        await handle.close();
        await fsp.rename(temp, cacheFile);
      } catch (error) {
        open = true;
        await abort();
        throw error;
      }
      memo.delete(cacheFile);
      await syncDir(dir);
      await dropIfStoreTurnedEncrypted(cacheFile);
    },
    abort,
  };
}

/** Makes a rename in `dir` durable. */
async function syncDir(dir: string): Promise<void> {
  // Windows cannot open a directory for fsync; NTFS journals the rename itself.
  if (process.platform === 'win32') return;
  const d = await fsp.open(dir, 'r');
  try {
    await d.sync();
  } finally {
    await d.close();
  }
}
