import { candidateIndexFileFor, markCandidateIndexVerified, saveCandidateIndex, type IndexEntry, type IndexMeta } from '../importers/candidate-index.js';
import type { FoundFile } from '../importers/discover.js';
import { SCAN_READ_BATCH } from '../importers/limits.js';
import { rescanFiles } from '../importers/scan.js';
import type { FileState } from '../importers/summarize-file.js';
import type { IndexCheck } from './confirm-index.js';

export interface IndexUpdate {
  /** Digests of the files re-read, to continue their next append from. */
  states: Map<string, FileState>;
  added: number;
  updated: number;
  removed: number;
}

/** What becomes of one changed path: its new entry (null: no longer listed), indexed when it has a digest. */
interface Replacement {
  entry: IndexEntry | null;
  indexed: boolean;
}

/**
 * Applies what checkIndex found without a full scan: the changed files re-read alone (from
 * scratch: continuing one would mean parsing the whole digest cache, 80 MB at 100,000 sessions),
 * the gone ones dropped, and the index rewritten (temp → fsync → rename) from the resident
 * entries, whose bytes are copied as they are, with the folders' view the check saw.
 *
 * `entries` and `unindexed` (the host's resident set) are changed in place, and only once the
 * index is written: a failed write leaves them as they were, and listings served while it is
 * written see the set the index still describes. (A copy of the 100,000-entry map, made so a
 * failure could drop it, was on the host's heap at its peak: bench/README.md issue 15.)
 *
 * The digest cache is left as it is: a state it holds for a file that changed is checked (size,
 * mtime, then checkHash over its bytes) before a later scan continues from it, and a file it
 * lacks is read afresh, so a stale state costs a read, never a wrong candidate.
 *
 * Null, with nothing written or changed, when a changed file is a symbolic link (the full scan
 * checks those against the tool's folder) or `stillValid()` turns false while the files are read.
 */
export async function updateIndex(
  entries: Map<string, IndexEntry>,
  unindexed: Set<string>,
  check: Extract<IndexCheck, { kind: 'changed' }>,
  options: { env?: NodeJS.ProcessEnv; cacheFile: string; states?: ReadonlyMap<string, FileState>; stillValid?: () => boolean },
): Promise<IndexUpdate | null> {
  const replaced = new Map<string, Replacement>();
  for (const path of check.removed) replaced.set(path, { entry: null, indexed: false });
  const out: IndexUpdate = { states: new Map(), added: 0, updated: 0, removed: 0 };
  // A batch at a time: rescanFiles opens all its files at once.
  for (let from = 0; from < check.files.length; from += SCAN_READ_BATCH) {
    const batch = await rescanFiles(check.files.slice(from, from + SCAN_READ_BATCH) as FoundFile[], { env: options.env, cacheFile: options.cacheFile, states: options.states });
    if (batch === null) return null;
    // As the watcher's updates (agent-candidates.ts applyChanged): a file without a digest is listed but not indexed, as the full scan does.
    for (const u of batch) {
      replaced.set(u.path, { entry: u.entry, indexed: u.entry !== null && u.state !== undefined });
      if (u.entry !== null && u.state) out.states.set(u.path, u.state);
    }
  }
  if (options.stillValid && !options.stillValid()) return null;
  // The index's entries in the resident map's order, as the map will hold them (a replaced entry where it was, new ones last).
  const indexed: IndexEntry[] = [];
  for (const e of entries.values()) {
    const r = replaced.get(e.path);
    if (r ? r.indexed : !unindexed.has(e.path)) indexed.push(r ? r.entry! : e);
  }
  for (const [path, r] of replaced) if (r.indexed && !entries.has(path)) indexed.push(r.entry!);
  const meta: IndexMeta = { ...check.meta, unindexed: check.total - indexed.length };
  const indexFile = candidateIndexFileFor(options.cacheFile);
  await saveCandidateIndex(indexFile, indexed, meta);
  await markCandidateIndexVerified(indexFile);
  for (const [path, r] of replaced) {
    const had = entries.has(path);
    if (r.entry === null) {
      if (had) out.removed += 1;
      entries.delete(path);
      unindexed.delete(path);
      continue;
    }
    if (had) out.updated += 1;
    else out.added += 1;
    entries.set(path, r.entry);
    if (r.indexed) unindexed.delete(path);
    else unindexed.add(path);
  }
  return out;
}
