import { discoverSessionFiles, type FoundFile } from '../importers/discover.js';
import { NO_INDEX_META, type IndexMeta } from '../importers/candidate-index.js';
import type { IndexedFile, IndexedPaths } from '../importers/indexed-files.js';
import { STAT_BATCH } from '../importers/limits.js';
import { locateAgentDirs } from '../importers/locate.js';
import { hasRacyFolders } from '../importers/quick-scan.js';
import { nodeImportReader, statAll, type ImportReader } from '../importers/reader.js';
import { unchanged } from '../importers/scan.js';

/**
 * Beyond this many new, changed or deleted files the confirm gives up on updating the index in
 * place and runs the full scan: re-reading that many files one by one costs about what the full
 * scan's parse of the digest cache does (80 MB at 100,000 sessions).
 */
export const INCREMENTAL_MAX_CHANGED = 1_000;

/**
 * What the confirming check found. `unchanged`: the index describes every file as a full scan
 * would record it. `changed`: only these files differ (new, grown, rewritten: `files`; gone:
 * `removed`), and `meta` is the folders' view a full scan would write now (its
 * `unindexed` left for the caller, which knows which re-read files got a digest; `total`: files found). `rescan`: anything
 * else (an index of one tool, with files it left out or racy folders, more than INCREMENTAL_MAX_CHANGED changes): the full scan settles it.
 */
export type IndexCheck =
  | { kind: 'unchanged' }
  | { kind: 'changed'; files: FoundFile[]; removed: string[]; meta: IndexMeta; total: number }
  | { kind: 'rescan'; reason: string };

/**
 * The host's confirming scan after a quick start: the folders are listed and every session file
 * is stat()ed, a batch at a time, against the resident entry for its path. Only the answer (and
 * the few files that differ) is kept. The full scan (scan.ts) keeps every file's stat, its index
 * map and the whole parsed digest cache at once: 600 MB more of the host's peak at 100,000
 * sessions when a single file had been added while no host ran.
 */
export async function checkIndex(
  index: { entries: IndexedPaths; meta: IndexMeta; writtenAt: number },
  entryAt: (path: string) => IndexedFile | undefined,
  options: { env?: NodeJS.ProcessEnv; reader?: ImportReader; maxChanged?: number } = {},
): Promise<IndexCheck> {
  const { meta } = index;
  const maxChanged = options.maxChanged ?? INCREMENTAL_MAX_CHANGED;
  // An index written from a host's watched changes has no folders' view (NO_INDEX_META): checked
  // all the same, as the check lists the folders itself and a file missing from the index (one
  // without a digest among them) is re-read as changed. The full scan it used to get held 354 MB
  // at 100,000 sessions, on the start of every host after one that saw a change.
  const withoutView = meta.unindexed === NO_INDEX_META.unindexed && meta.folders.length === 0;
  // A folder written too close to the index: the full scan writes it again so quick scans can trust it.
  if (meta.scope !== 'all' || (meta.unindexed !== 0 && !withoutView) || hasRacyFolders(index)) return { kind: 'rescan', reason: 'index not trusted' };
  const reader = options.reader ?? nodeImportReader;
  const found = await discoverSessionFiles(reader, locateAgentDirs(options.env ?? process.env));
  const files: FoundFile[] = [];
  // A compressed file is never indexed (meta.unindexed would not be 0): the full scan counts it.
  if (found.files.some((f) => f.compressed)) return { kind: 'rescan', reason: 'a compressed session file' };
  let seen = 0;
  for (let from = 0; from < found.files.length; from += STAT_BATCH) {
    const batch = found.files.slice(from, from + STAT_BATCH);
    const stats = await statAll(reader, batch.map((f) => f.path));
    for (let k = 0; k < batch.length; k++) {
      const entry = entryAt(batch[k]!.path);
      if (entry) seen += 1;
      if (unchanged(entry, batch[k]!, stats[k]!)) continue;
      files.push(batch[k]!);
      if (files.length > maxChanged) return { kind: 'rescan', reason: `more than ${maxChanged} files changed` };
    }
  }
  const removed: string[] = [];
  if (seen !== index.entries.length) {
    // Discovered paths are distinct: fewer of them with an entry than entries means some are gone.
    const discovered = new Set(found.files.map((f) => f.path));
    for (const e of index.entries) if (!discovered.has(e.path)) removed.push(e.path);
    if (files.length + removed.length > maxChanged) return { kind: 'rescan', reason: `more than ${maxChanged} files changed` };
  }
  const now: IndexMeta = {
    folders: found.folders.map((f) => f.path),
    folderMtimes: found.folders.map((f) => f.mtimeMs),
    scope: 'all',
    unindexed: 0,
    skipped: found.skipped,
  };
  const sameFolders = now.folders.length === meta.folders.length && now.folders.every((f, i) => f === meta.folders[i] && now.folderMtimes[i] === meta.folderMtimes[i]);
  if (files.length === 0 && removed.length === 0 && sameFolders && JSON.stringify(found.skipped) === JSON.stringify(meta.skipped)) return { kind: 'unchanged' };
  return { kind: 'changed', files, removed, meta: now, total: found.files.length };
}
