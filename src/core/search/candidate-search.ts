import type { ImportedCandidate } from '../importers/types.js';
import { MessageIndex } from './message-index.js';
import { termsOf, wordsMatch } from '../../shared/search-terms.js';
import { snippetOf, type SessionSearchHit } from './search-service.js';

/** Claude Code / Codex candidates a cross-session query answers with, besides Baton's sessions. */
export const CANDIDATE_HITS_MAX = 20;

/**
 * Claude Code and Codex sessions not yet in Baton, found by their title (the first real prompt,
 * which is all Baton reads of them before they are opened). The candidates are resident in the
 * host already (issue 15), so they are matched in memory with the index's own tokenizer rather
 * than indexed a second time; once opened in Baton, the whole conversation is in the index.
 * A hit's id is the candidate's row id (`claude:<id>`), which the UI opens as the candidate view.
 */
export function searchCandidates(candidates: readonly ImportedCandidate[], query: string, limit = CANDIDATE_HITS_MAX): SessionSearchHit[] {
  const terms = MessageIndex.terms(query);
  if (terms.length === 0) return [];
  const hits = candidates
    // Every term a word of the title, the last as a prefix: what the message index answers.
    .filter((c) => wordsMatch(termsOf(c.title), terms))
    .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0))
    .slice(0, limit);
  return hits.map((c) => ({ sessionId: `${c.source}:${c.externalId}`, title: c.title, cwd: c.cwd ?? '', seq: 0, snippet: snippetOf(c.title, terms[0]!), source: c.source }));
}
