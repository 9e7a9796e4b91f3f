import { candidateIndexFileFor, markCandidateIndexVerified, saveCandidateIndex, type IndexEntry, type IndexMeta } from '../importers/candidate-index.js';
import type { FoundFile } from '../importers/discover.js';
import { SCAN_READ_BATCH } from '../importers/limits.js';
import { rescanFiles } from '../importers/scan.js';
import type { FileState } from '../importers/summarize-file.js';
import type { IndexCheck } from './confirm-index.js';

export interface IndexUpdate {
  /** Every listed file's entry now (candidates, skipped files, unindexed candidates). */
  entries: Map<string, IndexEntry>;
  /** Paths listed but not written to the index (no digest: unreadable). */
  unindexed: Set<string>;
  /** Digests of the files re-read, to continue their next append from. */
  states: Map<string, FileState>;
  added: number;
  updated: number;
  removed: number;
}

/**
 * Applies what checkIndex found without a full scan: the changed files re-read alone (from
 * scratch: continuing one would mean parsing the whole digest cache, 80 MB at 100,000 sessions),
 * the gone ones dropped, and the index rewritten (temp → fsync → rename) from the resident
 * entries, whose bytes are copied as they are, with the folders' view the check saw.
 *
 * The digest cache is left as it is: a state it holds for a file that changed is checked (size,
 * mtime, then checkHash over its bytes) before a later scan continues from it, and a file it
 * lacks is read afresh, so a stale state costs a read, never a wrong candidate.
 *
 * Null, with nothing written, when a changed file is a symbolic link (the full scan checks those
 * against the tool's folder) or `stillValid()` turns false while the files are read.
 */
export async function updateIndex(
  resident: ReadonlyMap<string, IndexEntry>,
  unindexedBefore: ReadonlySet<string>,
  check: Extract<IndexCheck, { kind: 'changed' }>,
  options: { env?: NodeJS.ProcessEnv; cacheFile: string; states?: ReadonlyMap<string, FileState>; stillValid?: () => boolean },
): Promise<IndexUpdate | null> {
  const updates: NonNullable<Awaited<ReturnType<typeof rescanFiles>>> = [];
  // A batch at a time: rescanFiles opens all its files at once.
  for (let from = 0; from < check.files.length; from += SCAN_READ_BATCH) {
    const batch = await rescanFiles(check.files.slice(from, from + SCAN_READ_BATCH) as FoundFile[], { env: options.env, cacheFile: options.cacheFile, states: options.states });
    if (batch === null) return null;
    updates.push(...batch);
  }
  if (options.stillValid && !options.stillValid()) return null;
  const out: IndexUpdate = { entries: new Map(resident), unindexed: new Set(unindexedBefore), states: new Map(), added: 0, updated: 0, removed: 0 };
  for (const path of check.removed) {
    if (out.entries.delete(path)) out.removed += 1;
    out.unindexed.delete(path);
  }
  // As the watcher's updates (agent-candidates.ts applyChanged): a file without a digest is listed but not indexed, as the full scan does.
  for (const u of updates) {
    const had = out.entries.has(u.path);
    if (u.entry === null) {
      if (had) out.removed += 1;
      out.entries.delete(u.path);
      out.unindexed.delete(u.path);
      continue;
    }
    if (had) out.updated += 1;
    else out.added += 1;
    out.entries.set(u.path, u.entry);
    if (u.state) {
      out.states.set(u.path, u.state);
      out.unindexed.delete(u.path);
    } else out.unindexed.add(u.path);
  }
  const indexed = [...out.entries.values()].filter((e) => !out.unindexed.has(e.path));
  const meta: IndexMeta = { ...check.meta, unindexed: check.total - indexed.length };
  const indexFile = candidateIndexFileFor(options.cacheFile);
  await saveCandidateIndex(indexFile, indexed, meta);
  await markCandidateIndexVerified(indexFile);
  return out;
}
