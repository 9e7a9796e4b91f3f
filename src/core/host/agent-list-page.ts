import type { IndexEntry } from '../importers/candidate-index.js';
import { importedSessionId } from '../handoff/import-agent-session.js';
import type { AgentCandidate } from '../../shared/agents.js';

/**
 * The host's `agents:list` order, kept between requests (issue 15): the resident entries not yet
 * imported, newest first. Entries, not candidates: at 100,000 sessions the materialized
 * candidates held for the UI were 47 MB of the host's heap; a page materializes only its rows.
 */
export interface AgentListOrder {
  key: string;
  version: string;
  sorted: IndexEntry[];
  stats: { files: number; ms: number };
}

/**
 * Newest first by the row's sort time (`at`, the time `baton list` sorts by); ties keep the
 * resident set's order. An entry whose candidate was imported at its current state is left out
 * (its Baton session is listed instead); its candidate is built only for that check, not kept.
 */
export function orderAgentEntries(entries: readonly IndexEntry[], importedIds: ReadonlySet<string>): IndexEntry[] {
  const kept = importedIds.size === 0 ? [...entries] : entries.filter((e) => !importedIds.has(importedSessionId(e.candidate().fingerprint)));
  return kept.sort((a, b) => b.at - a.at);
}

/** One page of the order as candidates; the whole list when neither offset nor limit is given. */
export function agentListPage(order: AgentListOrder, offset: number | undefined, limit: number | undefined): { candidates: AgentCandidate[]; stats: { files: number; ms: number }; total: number; version: string } {
  const from = offset ?? 0;
  const rows = order.sorted.slice(from, limit === undefined ? undefined : from + limit);
  return { candidates: rows.map((e) => e.candidate()), stats: order.stats, total: order.sorted.length, version: order.version };
}
