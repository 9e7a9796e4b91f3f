import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { SCAN_CACHE_VERSION } from './limits.js';
import type { FileState } from './summarize-file.js';
import { isRecord } from './text.js';

/** The scan cache: one FileState per source log, keyed by absolute path. Baton's own file. */
export interface ScanCache {
  version: number;
  entries: Record<string, FileState>;
}

export function emptyCache(): ScanCache {
  return { version: SCAN_CACHE_VERSION, entries: {} };
}

/** A missing, damaged or other-version cache is an empty one: the scan rebuilds it. */
export async function loadScanCache(cacheFile: string | undefined): Promise<ScanCache> {
  if (!cacheFile) return emptyCache();
  try {
    const parsed: unknown = JSON.parse(await fsp.readFile(cacheFile, 'utf8'));
    if (isRecord(parsed) && parsed.version === SCAN_CACHE_VERSION && isRecord(parsed.entries)) {
      const entries: Record<string, FileState> = {};
      for (const [path, value] of Object.entries(parsed.entries)) if (isFileState(value)) entries[path] = value;
      return { version: SCAN_CACHE_VERSION, entries };
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
    isRecord(value.digest) &&
    typeof value.digest.endOffset === 'number'
  );
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
    await handle.writeFile(JSON.stringify(cache));
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
}
