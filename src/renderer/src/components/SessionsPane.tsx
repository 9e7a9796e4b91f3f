import { useMemo } from 'react';
import type { IndexRow } from '../../../shared/session';
import type { Remote } from '../hooks/use-remote';
import { groupSessions } from '../model/group-sessions';
import { ErrorState } from './ErrorState';
import { SessionList } from './SessionList';
import { Skeleton } from './Skeleton';

export interface SessionsPaneProps {
  sessions: Remote<IndexRow[]>;
  selectedId: string | null;
  now: number;
  onOpen: (id: string) => void;
}

/** The left pane's states: loading, failed, empty, or the grouped list (kept while a refresh fails). */
export function SessionsPane({ sessions, selectedId, now, onOpen }: SessionsPaneProps) {
  const groups = useMemo(() => groupSessions(sessions.value ?? []), [sessions.value]);

  if (sessions.value === undefined) {
    if (sessions.error !== undefined) return <ErrorState what="Could not load the sessions." error={sessions.error} onRetry={sessions.reload} />;
    return <Skeleton rows={5} label="Loading sessions…" />;
  }
  return (
    <>
      {sessions.error !== undefined && (
        <div className="inline-error" role="alert">
          <span>Could not refresh: {sessions.error.message}</span>
          <button type="button" className="button-link" onClick={sessions.reload}>
            Retry
          </button>
        </div>
      )}
      {groups.length === 0 ? (
        // The full empty state, with the command to run, fills the main pane (see DetailPane).
        <p className="sidebar-empty muted">No sessions yet.</p>
      ) : (
        <SessionList groups={groups} selectedId={selectedId} now={now} onOpen={onOpen} />
      )}
    </>
  );
}
