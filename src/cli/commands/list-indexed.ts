import { candidateIndexFileFor, markCandidateIndexVerified } from '../../core/importers/candidate-index.js';
import { countItems, itemOfRow, limitGroups, type ListFilter, type ListGroup } from '../../core/importers/candidate-list.js';
import { groupsWithIndex, prepareListing, readIndexListing, type IndexListing } from '../../core/importers/index-listing.js';
import { IndexDamagedError } from '../../core/importers/candidate-index-layout.js';
import { sealsFilesAt } from '../../core/store/at-rest/registry.js';
import { confirmedRecently, indexLooksCurrent } from '../../core/importers/quick-scan.js';
import { nodeImportReader } from '../../core/importers/reader.js';
import type { IndexRow } from '../../shared/session.js';
import type { Listing } from './list-document.js';
import { markPhase } from '../../core/perf/phase-trace.js';

/**
 * How far a listing trusts the candidate index. 'confirmed': due its periodic full check
 * (FULL_VERIFY_MAX_AGE_MS), it is checked file by file first. 'quick': the quick scan's rules
 * alone (folders and newest files as recorded, confirmed once at least), as a host lists after a
 * quick start: for the picker's first screen, which the confirmed listing replaces as soon as it
 * is drawn. The check stat()s every session file: at 20,000 sessions it held the first screen
 * back ~250 ms in every picker started a minute or more after the last listing.
 */
export type IndexTrust = 'confirmed' | 'quick';

/**
 * The candidate index, when it passes the quick scan's trust rules (quick-scan.ts indexIsFresh),
 * read without decoding its entries; null when it cannot be trusted (the full path runs). Due its
 * periodic full check (FULL_VERIFY_MAX_AGE_MS), it is checked file by file instead of rescanned,
 * unless `trust` is 'quick'.
 */
export async function readTrustedIndex(cacheFile: string, sealed = sealsFilesAt(cacheFile), env: NodeJS.ProcessEnv = process.env, trust: IndexTrust = 'confirmed'): Promise<IndexListing | null> {
  const indexFile = candidateIndexFileFor(cacheFile);
  const listing = readIndexListing(indexFile, sealed);
  if (!listing) return null;
  const newest = listing.head.newest.map(([path, size, mtimeMs]) => ({ path, size, mtimeMs }));
  const current = await indexLooksCurrent(nodeImportReader, { ...listing, newest }).catch(() => false);
  // Due its check, it is checked file by file (unless trusted quickly); never confirmed (no `.verified` beside it), the full scan runs as before.
  if (current && (confirmedRecently(listing.verifiedAt) || (listing.verifiedAt > 0 && (trust === 'quick' || (await confirmedFileByFile(indexFile, listing, env).catch(() => false)))))) return listing;
  listing.close();
  return null;
}

/**
 * The periodic full check without the full scan: every session file is stat()ed against the
 * index's columns (checkIndex, as a host's confirm after a quick start), and the index, unchanged,
 * is marked confirmed. The full scan decoded every entry, kept every file's stat and built the
 * listing row by row: a 307 MB peak at 100,000 sessions, once a minute (bench/README.md, issue
 * 15 eighth sitting). Anything that changed is left to the full scan.
 */
async function confirmedFileByFile(indexFile: string, listing: IndexListing, env: NodeJS.ProcessEnv): Promise<boolean> {
  const files = listing.files();
  if (!files) return false;
  // Loaded when due only (once a minute at most): checkIndex's module reaches the scanner's, and with
  // it the redaction rules, the parse pool and worker_threads, whose start-up every warm listing
  // paid for a check it mostly skips.
  const { checkIndex } = await import('../../core/host/confirm-index.js');
  const check = await checkIndex({ entries: files.entries, meta: listing.meta, writtenAt: listing.writtenAt }, (path) => files.at(path), { env });
  if (check.kind !== 'unchanged') return false;
  await markCandidateIndexVerified(indexFile);
  return true;
}

/**
 * The warm listing without a host (issue 15): the trusted index's groups (they keep their
 * pre-rendered JSON) merged with Baton's own sessions. Null when an imported session may hide a
 * candidate (that needs every candidate's fingerprint): the full path runs. `started`: monotonicMs()
 * when the listing began (agentScan.ms).
 */
export function listingFromIndex(listing: IndexListing, rows: readonly IndexRow[], everything: readonly IndexRow[], options: { filter: ListFilter; limit?: number }, started: number): Listing | null {
  try {
    if (everything.some((r) => r.id.startsWith('imp-'))) return null;
    let all: ListGroup[];
    try {
      all = groupsWithIndex(listing, rows.map(itemOfRow), options.filter);
    } catch (error) {
      if (error instanceof IndexDamagedError) return null;
      throw error;
    }
    const groups = options.limit !== undefined ? limitGroups(all, options.limit) : all;
    // Every byte to print is read and checked first: a damaged group falls back to the scan here, not mid-output.
    if (!prepareListing(groups)) return null;
    return done(listing, all, groups, started);
  } finally {
    listing.close(); // what is printed was read above
  }
}

function done(listing: IndexListing, all: ListGroup[], groups: ListGroup[], started: number): Listing {
  markPhase('index-listing');
  return {
    groups,
    total: countItems(all),
    notes: listing.head.notes,
    agentScan: { files: listing.head.files, ms: Math.round(monotonicMs() - started) },
  };
}

/**
 * Milliseconds on a monotonic clock, for a listing's agentScan.ms: process.hrtime, because the
 * first use of `performance` loads Node's perf_hooks modules (~0.8 ms of a warm listing).
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint() / 1000n) / 1000;
}
