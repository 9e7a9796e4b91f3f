import { discoverSessionFiles } from '../importers/discover.js';
import type { IndexEntry, IndexMeta } from '../importers/candidate-index.js';
import { STAT_BATCH } from '../importers/limits.js';
import { locateAgentDirs } from '../importers/locate.js';
import { hasRacyFolders } from '../importers/quick-scan.js';
import { nodeImportReader, statAll, type ImportReader } from '../importers/reader.js';
import { unchanged } from '../importers/scan.js';

/**
 * The host's confirming scan after a quick start, for the usual case where nothing changed: the
 * folders are listed and every session file is stat()ed, a batch at a time, against the resident
 * entry for its path. Only the answer is kept. The full scan (scan.ts) keeps every file's stat,
 * its index map and its next entries at once: 40 MB more of the host's peak at 100,000 sessions,
 * for a scan that, after a trusted start, almost always finds nothing to change.
 *
 * True when the index still describes every file exactly as a full scan would record it (same
 * folders with the same mtimes, same skipped counts, every discovered file an unchanged entry and
 * every entry discovered): the caller marks it verified. False for anything else: the caller
 * runs the full scan, which reads what changed and rewrites the caches.
 */
export async function confirmIndexUnchanged(
  index: { entries: readonly IndexEntry[]; meta: IndexMeta; writtenAt: number },
  entryAt: (path: string) => IndexEntry | undefined,
  options: { env?: NodeJS.ProcessEnv; reader?: ImportReader } = {},
): Promise<boolean> {
  const { meta } = index;
  // A folder written too close to the index: the full scan writes it again so quick scans can trust it.
  if (meta.scope !== 'all' || meta.unindexed !== 0 || hasRacyFolders(index)) return false;
  const reader = options.reader ?? nodeImportReader;
  const found = await discoverSessionFiles(reader, locateAgentDirs(options.env ?? process.env));
  if (found.files.length !== index.entries.length || found.folders.length !== meta.folders.length) return false;
  for (let i = 0; i < found.folders.length; i++) {
    if (found.folders[i]!.path !== meta.folders[i] || found.folders[i]!.mtimeMs !== meta.folderMtimes[i]) return false;
  }
  if (JSON.stringify(found.skipped) !== JSON.stringify(meta.skipped)) return false;
  // Discovered paths are distinct and as many as the entries: each matching one means all do.
  for (let from = 0; from < found.files.length; from += STAT_BATCH) {
    const batch = found.files.slice(from, from + STAT_BATCH);
    const stats = await statAll(reader, batch.map((f) => f.path));
    for (let k = 0; k < batch.length; k++) if (!unchanged(entryAt(batch[k]!.path), batch[k]!, stats[k]!)) return false;
  }
  return true;
}
