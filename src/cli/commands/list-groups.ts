import { countItems, groupItems, itemOfEntry, itemOfRow, limitGroups, type ListFilter, type ListGroup, type ListItem } from '../../core/importers/candidate-list.js';
import type { IndexEntry } from '../../core/importers/candidate-index.js';
import type { IndexRow } from '../../shared/session.js';
import { importersCacheFile, resolveDataDir } from '../../core/paths.js';
import { listingFromIndex, monotonicMs, readTrustedIndex, type IndexTrust } from './list-indexed.js';
import { sealsFilesAt } from '../../core/store/at-rest/registry.js';
import { openStoreForReading } from '../../core/store/open-for-reading.js';
import { listFromHost } from './list-host.js';
import { listingKeyStore } from './listing-key-store.js';

import { groupsOfDocument, type Listing } from './list-document.js';

export { groupsOfDocument, type Listing } from './list-document.js';

/** Candidates already imported at their current state are listed as their Baton session instead. */
async function notImported(entries: IndexEntry[], sessionIds: ReadonlySet<string>): Promise<IndexEntry[]> {
  // Hashing 20,000 fingerprints costs more than the rest of a warm listing; only do it when needed.
  if (![...sessionIds].some((id) => id.startsWith('imp-'))) return entries;
  const { importedSessionId } = await import('../../core/handoff/import-agent-session.js');
  return entries.filter((e) => !sessionIds.has(importedSessionId(e.candidate().fingerprint)));
}


/**
 * What `baton list` and the resume picker show: from a running host when there is one (asked
 * over the socket), else from this process's own scan of the index and the tools' folders.
 * `trust`: how far the candidate index is trusted (list-indexed.ts IndexTrust; 'confirmed' unless said).
 */
export async function loadListing(options: { agents: boolean; archived: boolean; host: boolean; filter: ListFilter; limit?: number; trust?: IndexTrust }): Promise<Listing> {
  const hosted = options.host && !options.archived ? await listFromHost({ agents: options.agents, filter: options.filter, limit: options.limit }) : null;
  if (hosted !== null) return groupsOfDocument(hosted);
  const started = monotonicMs();
  // Opened to read (open-for-reading.ts): the same refusals and permission checks as a writer's
  // open, none of its writer-only work, and its reads synchronous (no thread-pool hop each).
  const dataDir = resolveDataDir();
  const opening = openStoreForReading(dataDir, { keyStore: listingKeyStore() });
  // While the store opens (an encrypted store's key read waits on the keychain), the candidate
  // index is read and checked here. A sealed index (encrypted store) reads as damaged before the store
  // registers its key: it is read again below.
  const early = options.agents ? readTrustedIndex(importersCacheFile(dataDir), false, process.env, options.trust) : null;
  const store = await opening;
  try {
    const everything = await store.list({ includeArchived: true });
    const rows = options.archived ? everything : everything.filter((r) => !r.archived);
    const cacheFile = importersCacheFile(dataDir);
    const trusted = early === null ? null : sealsFilesAt(cacheFile) ? await readTrustedIndex(cacheFile, true, process.env, options.trust) : await early;
    const indexed = trusted ? listingFromIndex(trusted, rows, everything, options, started) : null;
    if (indexed) return indexed;
    // The scanner (and the redaction it loads) is imported only when the index cannot answer.
    const scan = options.agents ? await (await import('../../core/importers/scan.js')).scanCandidateIndex({ env: process.env, cacheFile: importersCacheFile(dataDir) }) : null;
    // An archived imported session still hides its Claude Code / Codex candidate.
    const entries = await notImported(scan?.entries ?? [], new Set(everything.map((r) => r.id)));
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
