import type { SessionDetail } from '../../../shared/ui-contract';
import type { Remote } from '../hooks/use-remote';
import { EmptyState } from './EmptyState';
import { ErrorState } from './ErrorState';
import { SessionView } from './lazy-views';
import { Skeleton } from './Skeleton';
import type { InitialSearch } from '../features/conversation/Conversation';

export interface DetailPaneProps {
  id: string | null;
  detail: Remote<SessionDetail>;
  /** True when the store answered with no sessions at all: the pane explains how to hand one off. */
  storeEmpty: boolean;
  now: number;
  /** A cross-session search hit that opened this session. */
  initialSearch?: InitialSearch;
}

/** The right pane's states: no sessions yet, nothing chosen, loading, not found, failed, or the session itself. */
export function DetailPane({ id, detail, storeEmpty, now, initialSearch }: DetailPaneProps) {
  if (id === null && storeEmpty) return <EmptyState />;
  if (id === null) {
    return (
      <div className="state state-placeholder" data-testid="no-selection">
        <h2 className="state-title">Pick a session</h2>
        <p className="muted">
          Choose one on the left, or use <kbd>↑</kbd> <kbd>↓</kbd> and <kbd>Enter</kbd>. A session handed off from a terminal opens here by itself.
        </p>
      </div>
    );
  }
  if (detail.value === undefined) {
    if (detail.error?.code === 'NOT_FOUND') {
      return (
        <div className="state state-not-found" data-testid="session-not-found" role="alert">
          <h2 className="state-title">Session not found</h2>
          <p>
            There is no session <code>{id}</code> in this store. It may have been archived, or the link points to another machine's store.
          </p>
        </div>
      );
    }
    if (detail.error !== undefined) return <ErrorState what={`Could not open session ${id}.`} error={detail.error} onRetry={detail.reload} />;
    return <Skeleton rows={3} label="Loading the session…" />;
  }
  return (
    <>
      {detail.error !== undefined && (
        <div className="inline-error" role="alert">
          <span>Could not refresh this session: {detail.error.message}</span>
          <button type="button" className="button-link" onClick={detail.reload}>
            Retry
          </button>
        </div>
      )}
      <SessionView detail={detail.value} now={now} onSessionChanged={detail.reload} initialSearch={initialSearch} />
    </>
  );
}
