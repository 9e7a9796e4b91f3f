import { useEffect, useRef, useState } from 'react';
import { SEARCH_QUERY_MAX_CHARS } from '../../../../shared/ui-contract';
import { termsOf } from '../../../../shared/search-terms';
import { useApi } from '../../hooks/api-context';
import { formatCount } from '../../model/format-number';

/** Typing settles this long before the host is asked. */
const SEARCH_DEBOUNCE_MS = 250;

export interface SessionSearchProps {
  sessionId: string;
  /** A query to start with (a cross-session search hit opened this session). */
  initialQuery?: string;
  /** The hit to show first (its seq), from the same cross-session hit. */
  initialSeq?: number;
  /** Show this hit: the conversation jumps to it and outlines it; null clears. */
  onHit: (seq: number | null, terms: string[]) => void;
}

/**
 * Search inside one session (session:search: the host's index, then the exact messages): the hit
 * count, next and previous (Enter, Shift+Enter), each hit shown and outlined in the conversation.
 */
export function SessionSearch({ sessionId, initialQuery = '', initialSeq, onHit }: SessionSearchProps) {
  const api = useApi();
  const [query, setQuery] = useState(initialQuery);
  const [seqs, setSeqs] = useState<number[] | null>(null);
  const [current, setCurrent] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const onHitRef = useRef(onHit);
  onHitRef.current = onHit;
  const startAt = useRef(initialSeq);

  useEffect(() => {
    const trimmed = query.trim();
    if (trimmed.length === 0) {
      setSeqs(null);
      onHitRef.current(null, []);
      return;
    }
    // The old hits no longer answer this query: next/previous wait for the new ones.
    setSeqs(null);
    let live = true;
    const timer = setTimeout(() => {
      api.invoke('session:search', { id: sessionId, query: trimmed }).then(
        (value) => {
          if (!live) return;
          setError(null);
          setSeqs(value.seqs);
          const wanted = startAt.current === undefined ? 0 : Math.max(0, value.seqs.indexOf(startAt.current));
          startAt.current = undefined;
          setCurrent(wanted);
          onHitRef.current(value.seqs[wanted] ?? null, termsOf(trimmed));
        },
        (failure: Error) => live && setError(failure.message),
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, sessionId, query]);

  const go = (delta: number) => {
    if (seqs === null || seqs.length === 0) return;
    const next = (current + delta + seqs.length) % seqs.length;
    setCurrent(next);
    onHitRef.current(seqs[next]!, termsOf(query));
  };

  return (
    <div className="session-search" role="search" data-testid="session-search">
      <input
        type="search"
        className="session-search-input"
        aria-label="Search this session"
        placeholder="Search this session"
        maxLength={SEARCH_QUERY_MAX_CHARS}
        value={query}
        data-testid="session-search-input"
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            go(event.shiftKey ? -1 : 1);
          }
        }}
      />
      <span className="session-search-count muted" aria-live="polite" data-testid="session-search-count">
        {error !== null ? 'Search failed' : seqs === null ? (query.trim().length > 0 ? 'Searching…' : '') : seqs.length === 0 ? 'No match' : `${formatCount(current + 1)} of ${formatCount(seqs.length)}`}
      </span>
      <button type="button" className="button-copy" aria-label="Previous match" disabled={!seqs?.length} onClick={() => go(-1)} data-testid="session-search-prev">
        ↑
      </button>
      <button type="button" className="button-copy" aria-label="Next match" disabled={!seqs?.length} onClick={() => go(1)} data-testid="session-search-next">
        ↓
      </button>
    </div>
  );
}
