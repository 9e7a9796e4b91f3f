import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { IndexRow } from '../../../shared/session';
import type { Remote } from '../hooks/use-remote';
import { SearchBar } from '../features/agents/SearchBar';
import { ScanStatus } from '../features/agents/ScanStatus';
import type { AgentScanState } from '../features/agents/use-agent-scan';
import { useCollapsedGroups } from '../features/agents/use-collapsed-groups';
import { branchesOf, filterRows, NO_FILTER, type RowFilter } from '../model/filter-rows';
import { groupSessions } from '../../../shared/resume-groups';
import { isPlainKey, isTypingTarget } from '../model/keyboard';
import { keepOrder } from '../model/keep-order';
import { ErrorState } from './ErrorState';
import { SessionList, type SessionListHandle } from './SessionList';
import { Skeleton } from './Skeleton';
import { isCandidateId } from '../model/merge-candidates';

export interface SessionsPaneProps {
  /** The index (`sessions:list`): its loading and error states are the pane's. */
  sessions: Remote<IndexRow[]>;
  /** The index rows plus the Claude Code / Codex candidates found so far. */
  rows: readonly IndexRow[];
  scan: AgentScanState;
  selectedId: string | null;
  now: number;
  onOpen: (id: string) => void;
  /** A bulk action for a directory group, given its Baton session ids (the shell passes Archive all). */
  groupAction?: (cwd: string, ids: string[]) => ReactNode;
}

/**
 * The left pane: search and filters, the scan indicator, and the virtualized, grouped list (kept
 * while a refresh fails). `/` anywhere focuses the search; Esc in it clears it.
 */
export function SessionsPane({ sessions, rows, scan, selectedId, now, onOpen, groupAction }: SessionsPaneProps) {
  const [filter, setFilter] = useState<RowFilter>(NO_FILTER);
  const [collapsed, toggleGroup] = useCollapsedGroups();
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<SessionListHandle>(null);

  const shown = useMemo(() => filterRows(rows, filter, now), [rows, filter, now]);
  const sorted = useMemo(() => groupSessions(shown), [shown]);
  // While the pointer is over the list, rows keep their places (a click must land where it aimed).
  const [hovered, setHovered] = useState(false);
  const onScreen = useRef(sorted);
  const groups = useMemo(() => (hovered ? keepOrder(onScreen.current, sorted) : sorted), [hovered, sorted]);
  onScreen.current = groups;
  const branches = useMemo(() => branchesOf(rows), [rows]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== '/' || !isPlainKey(event) || isTypingTarget(event.target)) return;
      event.preventDefault();
      searchRef.current?.focus();
      searchRef.current?.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  if (sessions.value === undefined) {
    if (sessions.error !== undefined) return <ErrorState what="Could not load the sessions." error={sessions.error} onRetry={sessions.reload} />;
    return <Skeleton rows={5} label="Loading sessions…" />;
  }
  return (
    <div className="sessions-pane">
      <SearchBar
        filter={filter}
        branches={branches}
        onChange={setFilter}
        onEnterList={() => listRef.current?.focus()}
        inputRef={searchRef}
        shown={shown.length}
        total={rows.length}
      />
      <ScanStatus scan={scan} />
      {sessions.error !== undefined && (
        <div className="inline-error" role="alert">
          <span>Could not refresh: {sessions.error.message}</span>
          <button type="button" className="button-link" onClick={sessions.reload}>
            Retry
          </button>
        </div>
      )}
      {rows.length === 0 ? (
        // The full empty state, with the command to run, fills the main pane (see DetailPane).
        <p className="sidebar-empty muted">No sessions yet.</p>
      ) : groups.length === 0 ? (
        <div className="sidebar-empty muted" data-testid="no-matches">
          <p>No session matches.</p>
          <button type="button" className="button-link" onClick={() => setFilter(NO_FILTER)}>
            Clear search and filters
          </button>
        </div>
      ) : (
        <SessionList
          groups={groups}
          selectedId={selectedId}
          now={now}
          onOpen={onOpen}
          collapsed={collapsed}
          onToggleGroup={toggleGroup}
          groupAction={groupAction && ((cwd) => groupAction(cwd, (groups.find((g) => g.cwd === cwd)?.sessions ?? []).map((r) => r.id).filter((id) => !isCandidateId(id))))}
          onExitTop={() => searchRef.current?.focus()}
          handle={listRef}
          onHoverChange={setHovered}
        />
      )}
    </div>
  );
}
