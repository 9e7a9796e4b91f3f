import { scanCandidateIndex } from '../../core/importers/scan.js';
import { countItems, groupItems, itemOfEntry, itemOfRow, limitGroups, type ListFilter, type ListGroup, type ListItem } from '../../core/importers/candidate-list.js';
import type { IndexEntry } from '../../core/importers/candidate-index.js';
import type { IndexRow } from '../../shared/session.js';
import { importersCacheFile } from '../../core/paths.js';
import { candidateIndexFileFor } from '../../core/importers/candidate-index.js';
import { groupsWithIndex, readIndexListing } from '../../core/importers/index-listing.js';
import { indexIsFresh } from '../../core/importers/quick-scan.js';
import { nodeImportReader } from '../../core/importers/reader.js';
import { importedSessionId } from '../../core/handoff/import-agent-session.js';
import { openCliStore } from '../context.js';
import { listFromHost } from './list-host.js';

import { groupsOfDocument, type Listing } from './list-document.js';

export { groupsOfDocument, type Listing } from './list-document.js';

/** Candidates already imported at their current state are listed as their Baton session instead. */
function notImported(entries: IndexEntry[], sessionIds: ReadonlySet<string>): IndexEntry[] {
  // Hashing 20,000 fingerprints costs more than the rest of a warm listing; only do it when needed.
  if (![...sessionIds].some((id) => id.startsWith('imp-'))) return entries;
  return entries.filter((e) => !sessionIds.has(importedSessionId(e.candidate().fingerprint)));
}


/**
 * What `baton list` and the resume picker show: from a running host when there is one (asked
 * over the socket), else from this process's own scan of the index and the tools' folders.
 */
export async function loadListing(options: { agents: boolean; archived: boolean; host: boolean; filter: ListFilter; limit?: number }): Promise<Listing> {
  const hosted = options.host && !options.archived ? await listFromHost({ agents: options.agents, filter: options.filter, limit: options.limit }) : null;
  if (hosted !== null) return groupsOfDocument(hosted);
  const { dataDir, store } = await openCliStore();
  try {
    const everything = await store.list({ includeArchived: true });
    const rows = options.archived ? everything : everything.filter((r) => !r.archived);
    const indexed = options.agents ? await listingFromIndex(dataDir, rows, everything, options) : null;
    if (indexed) return indexed;
    const scan = options.agents ? await scanCandidateIndex({ env: process.env, cacheFile: importersCacheFile(dataDir) }) : null;
    // An archived imported session still hides its Claude Code / Codex candidate.
    const entries = notImported(scan?.entries ?? [], new Set(everything.map((r) => r.id)));
    const items: ListItem[] = rows.map(itemOfRow);
    for (const e of entries) items.push(itemOfEntry(e));
    const all = groupItems(items, options.filter);
    return {
      groups: options.limit !== undefined ? limitGroups(all, options.limit) : all,
      total: countItems(all),
      notes: (scan?.entries ?? [])
        .filter((e) => e.note)
        .map((e) => `${e.path}: ${e.note}`)
        .sort(),
      agentScan: scan ? { files: scan.stats.files, ms: scan.stats.ms } : null,
    };
  } finally {
    await store.close();
  }
}

/**
 * The warm listing without a host (issue 15): straight from the candidate index when the index
 * passes the quick scan's trust rules (quick-scan.ts indexIsFresh), without decoding its
 * entries; the index's groups keep their pre-rendered JSON. Null when the index cannot be
 * trusted, or when an imported session may hide a candidate (that needs every candidate's
 * fingerprint): the full path runs.
 */
async function listingFromIndex(dataDir: string, rows: readonly IndexRow[], everything: readonly IndexRow[], options: { filter: ListFilter; limit?: number }): Promise<Listing | null> {
  const started = performance.now();
  if (everything.some((r) => r.id.startsWith('imp-'))) return null;
  const listing = readIndexListing(candidateIndexFileFor(importersCacheFile(dataDir)));
  if (!listing) return null;
  const newest = listing.head.newest.map(([path, size, mtimeMs]) => ({ path, size, mtimeMs }));
  if (!(await indexIsFresh(nodeImportReader, { ...listing, newest }))) return null;
  const all = groupsWithIndex(listing, rows.map(itemOfRow), options.filter);
  return {
    groups: options.limit !== undefined ? limitGroups(all, options.limit) : all,
    total: countItems(all),
    notes: listing.head.notes,
    agentScan: { files: listing.head.files, ms: Math.round(performance.now() - started) },
  };
}
