import { FOLDER_MTIME_RACY_MS, FULL_VERIFY_MAX_AGE_MS, QUICK_VERIFY_NEWEST } from './limits.js';
import { statAll, type ImportReader, type ImportStat } from './reader.js';
import type { IndexEntry, IndexMeta } from './candidate-index.js';
import { statsOf } from './index-stats.js';
import type { ScanStats } from './types.js';

/**
 * A warm listing without a host, without a stat() per session file (issue 15): at 20,000 files
 * those stats and the folder listings were half of a warm `baton list`.
 *
 * The index is trusted when
 *   - a full scan confirmed it less than FULL_VERIFY_MAX_AGE_MS ago (markCandidateIndexVerified),
 *   - every folder that scan listed keeps its mtime (so no session file was added, removed or
 *     renamed: creating or deleting an entry changes its folder's mtime; appending does not), and
 *     none had changed within FOLDER_MTIME_RACY_MS before the index was written (file systems
 *     stamp with a coarse clock: a file created in the same tick as the folder's stat would
 *     leave its mtime as recorded),
 *   - that scan indexed every file it found, for every tool,
 *   - and the QUICK_VERIFY_NEWEST most recently modified files still have their size and mtime
 *     (Claude Code and Codex append to the session in use, which is among the newest).
 * What it can miss: an older session appended to since the last full scan shows its previous
 * message count and time for at most FULL_VERIFY_MAX_AGE_MS; a running host sees such a change
 * within a second and rewrites the index. Anything else declines (null) and the full scan runs.
 */
export async function quickIndexScan(reader: ImportReader, index: { entries: IndexEntry[]; meta: IndexMeta; writtenAt: number; verifiedAt: number }, now = Date.now()): Promise<{ entries: IndexEntry[]; stats: ScanStats } | null> {
  const started = performance.now();
  const { entries, meta } = index;
  if (!(await indexIsFresh(reader, { ...index, newest: newestEntries(entries, QUICK_VERIFY_NEWEST) }, now))) return null;

  const stats = statsOf(entries, meta.skipped, entries.length, 0);
  const candidates = entries.filter((e) => e.skip === null);
  stats.ms = Math.round(performance.now() - started);
  return { entries: candidates, stats };
}

/**
 * The trust rules above, for an index's meta and its newest files (`newest`: the
 * QUICK_VERIFY_NEWEST entries with the latest mtimes, as recorded). A listing read straight from
 * the index (index-listing.ts) checks the same thing without decoding the entries.
 */
export async function indexIsFresh(reader: ImportReader, index: { meta: IndexMeta; writtenAt: number; verifiedAt: number; newest: ReadonlyArray<{ path: string; size: number; mtimeMs: number }> }, now = Date.now()): Promise<boolean> {
  return confirmedRecently(index.verifiedAt, now) && (await indexLooksCurrent(reader, index));
}

/** A full scan (or a check of every file) confirmed the index less than FULL_VERIFY_MAX_AGE_MS ago, by this machine's clock. */
export function confirmedRecently(verifiedAt: number, now = Date.now()): boolean {
  return now - verifiedAt >= 0 && now - verifiedAt < FULL_VERIFY_MAX_AGE_MS;
}

/** indexIsFresh's rules but the age of the last confirmation: the folders and the newest files are as the index recorded them. */
export async function indexLooksCurrent(reader: ImportReader, index: { meta: IndexMeta; writtenAt: number; newest: ReadonlyArray<{ path: string; size: number; mtimeMs: number }> }): Promise<boolean> {
  const { meta, newest } = index;
  if (meta.scope !== 'all' || meta.unindexed !== 0 || meta.folders.length === 0) return false;
  if (hasUntrustedFolders(index)) return false;
  const folderStats = await statAll(reader, meta.folders);
  for (let i = 0; i < folderStats.length; i++) if (mtimeOf(folderStats[i]!) !== meta.folderMtimes[i]) return false;
  const fileStats = await statAll(reader, newest.map((e) => e.path));
  for (let i = 0; i < newest.length; i++) {
    const s = fileStats[i]!;
    if (s instanceof Error || !s.isFile || s.size !== newest[i]!.size || s.mtimeMs !== newest[i]!.mtimeMs) return false;
  }
  return true;
}

/** A folder recorded as untrusted (0), or changed too close to the index's writing to be sure nothing followed in the same tick. */
export function hasUntrustedFolders(index: { meta: IndexMeta; writtenAt: number }): boolean {
  return index.meta.folderMtimes.some((m) => m === 0) || hasRacyFolders(index);
}

/** A folder changed within FOLDER_MTIME_RACY_MS of the index's writing: written again later, the index can trust it. */
export function hasRacyFolders(index: { meta: IndexMeta; writtenAt: number }): boolean {
  return index.meta.folderMtimes.some((m) => m !== 0 && m > index.writtenAt - FOLDER_MTIME_RACY_MS);
}

/** -1 for a folder that is missing, as discovery records it. */
function mtimeOf(s: ImportStat | Error): number {
  if (!(s instanceof Error)) return s.mtimeMs;
  return (s as NodeJS.ErrnoException).code === 'ENOENT' ? -1 : Number.NaN;
}

/** The n entries with the latest file mtimes (ties at the cut included), without sorting the entries. */
export function newestEntries(entries: readonly IndexEntry[], n: number): IndexEntry[] {
  if (entries.length <= n) return [...entries];
  const mtimes = new Float64Array(entries.length);
  for (let i = 0; i < entries.length; i++) mtimes[i] = entries[i]!.mtimeMs;
  mtimes.sort(); // numeric, ascending, native
  const cut = mtimes[entries.length - n]!;
  return entries.filter((e) => e.mtimeMs >= cut);
}
