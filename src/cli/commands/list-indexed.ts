import { candidateIndexFileFor } from '../../core/importers/candidate-index.js';
import { countItems, itemOfRow, limitGroups, type ListFilter } from '../../core/importers/candidate-list.js';
import { groupsWithIndex, readIndexListing } from '../../core/importers/index-listing.js';
import { indexIsFresh } from '../../core/importers/quick-scan.js';
import { nodeImportReader } from '../../core/importers/reader.js';
import type { IndexRow } from '../../shared/session.js';
import type { Listing } from './list-document.js';
import { markPhase } from '../../core/perf/phase-trace.js';

/**
 * The warm listing without a host (issue 15): straight from the candidate index when the index
 * passes the quick scan's trust rules (quick-scan.ts indexIsFresh), without decoding its
 * entries; the index's groups keep their pre-rendered JSON. Null when the index cannot be
 * trusted, or when an imported session may hide a candidate (that needs every candidate's
 * fingerprint): the full path runs.
 */
export async function listingFromIndex(cacheFile: string, rows: readonly IndexRow[], everything: readonly IndexRow[], options: { filter: ListFilter; limit?: number }): Promise<Listing | null> {
  const started = performance.now();
  if (everything.some((r) => r.id.startsWith('imp-'))) return null;
  const listing = readIndexListing(candidateIndexFileFor(cacheFile));
  if (!listing) return null;
  const newest = listing.head.newest.map(([path, size, mtimeMs]) => ({ path, size, mtimeMs }));
  if (!(await indexIsFresh(nodeImportReader, { ...listing, newest }))) return null;
  const all = groupsWithIndex(listing, rows.map(itemOfRow), options.filter);
  markPhase('index-listing');
  return {
    groups: options.limit !== undefined ? limitGroups(all, options.limit) : all,
    total: countItems(all),
    notes: listing.head.notes,
    agentScan: { files: listing.head.files, ms: Math.round(performance.now() - started) },
  };
}
