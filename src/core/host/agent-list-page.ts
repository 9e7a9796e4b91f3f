import { createHash } from 'node:crypto';
import type { IndexEntry } from '../importers/candidate-index.js';
import type { ScanStats } from '../importers/types.js';
import { IMPORTED_ID_PREFIX, importedSessionId } from '../handoff/import-agent-session.js';
import type { AgentCandidate } from '../../shared/agents.js';
import type { FirstScreen } from '../importers/candidate-index-first-screen.js';

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

/** What the memo reads: the resident candidates (agent-candidates.ts) and the store's rows. */
export interface AgentListSource {
  version(): number;
  entries(): IndexEntry[];
  stats(): ScanStats | null;
}

/**
 * The order kept between `agents:list` requests, keyed by the candidates' version and the
 * store's rows (an import or archive changes which candidates are listed). `prepare()` sorts
 * ahead of the first request: a new host sorts while its page still loads, not after the page
 * asked (20,000 entries: 40–230 ms of the event loop on the first screen's path).
 */
export function createAgentListMemo(source: AgentListSource, listRows: () => Promise<ReadonlyArray<{ id: string }>>) {
  let memo: AgentListOrder | null = null;
  let sorts = 0;
  async function order(): Promise<AgentListOrder> {
    const rows = await listRows();
    // Synchronous from here: a second caller that awaited the rows meanwhile finds this memo.
    const key = `${source.version()}|${rows.map((r) => r.id).join(',')}`;
    if (memo?.key === key) return memo;
    const stats = source.stats();
    const version = createHash('sha256').update(key).digest('hex').slice(0, 16);
    sorts += 1;
    memo = { key, version, sorted: orderAgentEntries(source.entries(), new Set(rows.map((r) => r.id))), stats: { files: stats?.files ?? 0, ms: stats?.ms ?? 0 } };
    return memo;
  }
  return {
    order,
    /** Sorts now, so the first request finds the order; a failure is left for that request to meet. */
    prepare: (): Promise<void> => order().then(() => undefined, () => undefined),
    /** How many times the order was built (tests: the first request after prepare() sorts nothing). */
    sorts: () => sorts,
  };
}
export type AgentListMemo = ReturnType<typeof createAgentListMemo>;

/** What firstScreenPage reads: the resident candidates' first screen (agent-candidates.ts). */
export interface FirstScreenSource {
  firstScreen(): FirstScreen | null;
  firstScreenServed(): void;
}

/**
 * The UI's first page answered from the index's first screen, before the host read the whole index
 * (issue 15, sixteenth sitting): the newest rows and the exact total, marked `scanning` so the page
 * asks for no more pages and fetches again at the agents:changed that follows the whole read. Null
 * when that answer could differ from the order's: a page past the first screen, or a store holding
 * imported sessions (which of the index's candidates they hide, and so the total, only the whole
 * index says).
 */
export async function firstScreenPage(source: FirstScreenSource, listRows: () => Promise<ReadonlyArray<{ id: string }>>, offset: number | undefined, limit: number | undefined): Promise<ReturnType<typeof agentListPage> & { scanning: true } | null> {
  const screen = source.firstScreen();
  if (!screen || (offset ?? 0) !== 0) return null;
  const shown = limit ?? screen.total;
  if (shown > screen.candidates.length && screen.candidates.length < screen.total) return null;
  const rows = await listRows();
  if (rows.some((r) => r.id.startsWith(IMPORTED_ID_PREFIX))) return null;
  // The whole index may have come in while the store answered: the order is the answer then.
  if (source.firstScreen() !== screen) return null;
  source.firstScreenServed();
  return { candidates: screen.candidates.slice(0, shown), stats: { files: screen.files, ms: 0 }, total: screen.total, version: `first-screen-${screen.total}`, scanning: true };
}
