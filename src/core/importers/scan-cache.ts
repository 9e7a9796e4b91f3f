import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { SCAN_CACHE_VERSION } from './limits.js';
import type { FileState } from './summarize-file.js';
import { isRecord } from './text.js';
import { dropIfStoreTurnedEncrypted, openFileFor, sealFileFor } from '../store/at-rest/registry.js';

/** The scan cache: one FileState per source log, keyed by absolute path. Baton's own file. */
export interface ScanCache {
  version: number;
  entries: Record<string, FileState>;
}

export function emptyCache(): ScanCache {
  return { version: SCAN_CACHE_VERSION, entries: {} };
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
    const parsed: unknown = JSON.parse(openFileFor(cacheFile, await fsp.readFile(cacheFile)).toString('utf8'));
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

/**
 * JSON text of states serialized ahead of the save (rememberStateJson), keyed by the state object:
 * a cold scan serializes each batch's states while its workers parse the next ones, so writing
 * 20,000 digests at the end is a concatenation, not one 16 MB JSON.stringify on the critical path.
 * Cached states are never mutated (see `memo`), so a remembered text stays the state's JSON.
 */
const stateJson = new WeakMap<FileState, string>();

/** Serializes `state` now (JSON.stringify, as saveScanCache would) for a later save. */
export function rememberStateJson(state: FileState): void {
  if (!stateJson.has(state)) stateJson.set(state, JSON.stringify(state));
}

/** JSON.stringify(cache), byte for byte, from the texts remembered where there are some. */
export function scanCacheJson(cache: ScanCache): string {
  const parts: string[] = [];
  // Object.entries walks keys in the order JSON.stringify does (own enumerable, insertion order for non-index keys).
  for (const [path, state] of Object.entries(cache.entries)) parts.push(`${JSON.stringify(path)}:${stateJson.get(state) ?? JSON.stringify(state)}`);
  return `{"version":${JSON.stringify(cache.version)},"entries":{${parts.join(',')}}}`;
}

/**
 * temp file in the same directory → write → fsync → rename → fsync(dir): a reader sees the old
 * cache or the new one, never a mix. The folder is created 0700 when missing.
 */
export async function saveScanCache(cacheFile: string, cache: ScanCache): Promise<void> {
  const dir = dirname(cacheFile);
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, `.${basename(cacheFile)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await fsp.open(temp, 'wx', 0o600);
  try {
    // Sealed with the store's key when the data directory is encrypted (it names other tools' sessions).
    await handle.writeFile(sealFileFor(cacheFile, Buffer.from(scanCacheJson(cache))));
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fsp.unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  try {
    await fsp.rename(temp, cacheFile);
  } catch (error) {
    await fsp.unlink(temp).catch(() => undefined);
    throw error;
  }
  if (process.platform !== 'win32') {
    // Windows cannot open a directory for fsync; NTFS journals the rename itself.
    const d = await fsp.open(dir, 'r');
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  }
  await dropIfStoreTurnedEncrypted(cacheFile);
  await remember(cacheFile, cache);
}
