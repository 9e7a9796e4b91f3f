import { useCallback, useEffect, useMemo, useState } from 'react';
import { useApi } from '../../hooks/api-context';
import { useRemote } from '../../hooks/use-remote';

/**
 * "Archived": sessions that left the candidate list, still searchable (title, directory, id) and
 * openable; Unarchive in the session view brings one back. Fetched when opened, refreshed on changes.
 */
export function ArchivedSection({ selectedId, onOpen }: { selectedId: string | null; onOpen: (id: string) => void }) {
  const api = useApi();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  // Fetched only while open: the candidate list already reloads on every change, this need not too.
  const fetchAll = useCallback(() => api.invoke('sessions:list', { includeArchived: true }), [api]);
  const load = open ? fetchAll : null;
  const rows = useRemote(open ? 'sessions:list:archived' : 'sessions:list:archived:closed', load);
  const { reload } = rows;
  useEffect(() => (open ? api.on('session:changed', () => reload()) : undefined), [api, reload, open]);
  const archived = useMemo(() => (rows.value ?? []).filter((r) => r.archived), [rows.value]);
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q ? archived.filter((r) => `${r.title}\n${r.cwd}\n${r.id}`.toLowerCase().includes(q)) : archived;
  }, [archived, query]);
  return (
    <section className="archived-section" data-testid="archived-section" aria-label="Archived sessions">
      <button type="button" className="group-toggle" aria-expanded={open} data-testid="archived-toggle" onClick={() => setOpen((o) => !o)}>
        <span className="chevron" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        Archived{rows.value !== undefined && <span className="count">{archived.length}</span>}
      </button>
      {open && (
        <>
          <input type="search" className="archived-search" placeholder="Search archived sessions" aria-label="Search archived sessions" data-testid="archived-search" value={query} onChange={(e) => setQuery(e.target.value)} />
          <ul className="archived-list">
            {shown.map((r) => (
              <li key={r.id}>
                <button type="button" className={`button-link archived-item${r.id === selectedId ? ' selected' : ''}`} data-testid="archived-item" data-id={r.id} onClick={() => onOpen(r.id)} title={r.cwd}>
                  {r.title || 'Untitled session'}
                </button>
              </li>
            ))}
            {shown.length === 0 && <li className="muted">{archived.length === 0 ? (rows.value === undefined ? 'Loading…' : 'No archived sessions.') : 'No archived session matches.'}</li>}
          </ul>
        </>
      )}
    </section>
  );
}
