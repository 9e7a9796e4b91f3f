import { useEffect, useState } from 'react';
import { SEARCH_QUERY_MAX_CHARS, type SearchHit } from '../../../../shared/ui-contract';
import { SourceBadge } from '../../components/SourceBadge';
import { useApi } from '../../hooks/api-context';
import { formatCount } from '../../model/format-number';

const SEARCH_DEBOUNCE_MS = 250;

/**
 * What was said, across every Baton session (search:messages, the host's full-text index). A hit
 * opens its session with the same query searched inside it, at that message.
 */
export function SearchPanel({ onOpenHit }: { onOpenHit: (hit: SearchHit, query: string) => void }) {
  const api = useApi();
  const [query, setQuery] = useState('');
  const [result, setResult] = useState<{ query: string; hits: SearchHit[]; tookMs: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const trimmed = query.trim();
    if (trimmed.length === 0) return setResult(null);
    let live = true;
    const timer = setTimeout(() => {
      api.invoke('search:messages', { query: trimmed }).then(
        (value) => {
          if (!live) return;
          setError(null);
          setResult({ query: trimmed, ...value });
        },
        (failure: Error) => live && setError(failure.message),
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, query]);

  return (
    <section className="panel search-panel" aria-labelledby="search-heading" data-testid="search-panel">
      <header className="panel-header">
        <h1 id="search-heading">Search messages</h1>
      </header>
      <p className="muted">Everything said in Baton's sessions. Claude Code and Codex sessions not opened in Baton yet are found by their first prompt.</p>
      <input
        type="search"
        className="session-search-input search-panel-input"
        aria-label="Search what was said in every session"
        placeholder="Search what was said"
        maxLength={SEARCH_QUERY_MAX_CHARS}
        autoFocus
        value={query}
        data-testid="search-input"
        onChange={(event) => setQuery(event.target.value)}
      />
      {error !== null && (
        <p className="inline-error" role="alert">
          Search failed: {error}
        </p>
      )}
      {result !== null && (
        <>
          <p className="muted" aria-live="polite" data-testid="search-summary">
            {result.hits.length === 0 ? 'No session said that.' : `${formatCount(result.hits.length)} ${result.hits.length === 1 ? 'session' : 'sessions'}`}
          </p>
          <ul className="search-hits">
            {result.hits.map((hit) => (
              <li key={hit.sessionId}>
                <button type="button" className="search-hit" data-testid="search-hit" data-session-id={hit.sessionId} onClick={() => onOpenHit(hit, result.query)}>
                  <span className="search-hit-title">
                    {hit.source !== undefined && <SourceBadge source={hit.source} />} {hit.title.length > 0 ? hit.title : 'Untitled session'}
                  </span>
                  <span className="search-hit-cwd muted">{hit.cwd}</span>
                  <span className="search-hit-snippet">{hit.snippet}</span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
