import { candidateRow, type AgentCandidate } from '../../../shared/agents';
import type { IndexRow } from '../../../shared/session';

/** Candidate rows are `claude:<id>` / `codex:<id>`; Baton ids cannot hold a colon, so the prefix is unambiguous. */
export function isCandidateId(id: string | null): boolean {
  return id !== null && /^(claude|codex):/.test(id);
}

export interface MergedRows {
  rows: IndexRow[];
  /** Candidate row id → the candidate, for the candidate panel. */
  candidates: Map<string, AgentCandidate>;
}

/**
 * Baton's own sessions and the Claude Code / Codex sessions found on disk, as one list of rows:
 * the index first (it is what the first screen shows), candidates appended (first one wins on a
 * repeated id, so one file listed twice shows once). Candidates in `imported` (opened in Baton
 * since the last scan) are left out at once, so the list never shows both.
 */
export function mergeRows(index: readonly IndexRow[], found: readonly AgentCandidate[], imported: ReadonlySet<string> = new Set()): MergedRows {
  const rows = index.slice();
  const candidates = new Map<string, AgentCandidate>();
  for (const candidate of found) {
    const row = candidateRow(candidate);
    // Opened in Baton in this window: its Baton session is the row now, until the next scan drops it.
    if (candidates.has(row.id) || imported.has(row.id)) continue;
    candidates.set(row.id, candidate);
    rows.push(row);
  }
  return { rows, candidates };
}
