import { useCallback, useEffect, useState } from 'react';
import { toApiError, type ApiError } from '../../api';
import { useApi } from '../../hooks/api-context';
import { useRemote } from '../../hooks/use-remote';
import { TaskCard } from './TaskCard';

/**
 * The unfinished tasks a handed-off session left behind that cannot simply keep running here,
 * each with what to do about it; Terminate asks first, then sends `confirmed: true`.
 */
export function HandoffTasks({ sessionId, elapsedMs }: { sessionId: string; elapsedMs: (fetchedAt: number) => number }) {
  const api = useApi();
  const load = useCallback(() => api.invoke('tasks:handoff', { sessionId }), [api, sessionId]);
  const remote = useRemote(`tasks:handoff:${sessionId}`, load);
  const { reload } = remote;
  const [fetchedAt, setFetchedAt] = useState(() => Date.now());
  const [asking, setAsking] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<{ id: string; error: ApiError } | null>(null);
  useEffect(() => api.on('tasks:changed', () => reload()), [api, reload]);
  useEffect(() => setFetchedAt(Date.now()), [remote.value]);

  function terminate(id: string): void {
    setAsking(null);
    setBusy(id);
    setFailure(null);
    api.invoke('tasks:terminate', { id, confirmed: true }).then(
      () => {
        setBusy(null);
        reload();
      },
      (error: unknown) => {
        setBusy(null);
        setFailure({ id, error: toApiError(error) });
        reload();
      },
    );
  }

  const unrecoverable = (remote.value ?? []).filter((entry) => !entry.view.record.recoverable);
  if (remote.error !== undefined && remote.value === undefined) {
    return <p className="inline-error">Could not load the tasks this session left behind: {remote.error.message}</p>;
  }
  if (unrecoverable.length === 0) return null;
  return (
    <section className="handoff-tasks" data-testid="handoff-tasks" aria-labelledby="handoff-tasks-title">
      <h2 id="handoff-tasks-title" className="section-title">
        Left behind by the handoff of <code>{sessionId}</code>
      </h2>
      <p className="muted">These tasks cannot be taken over here. Decide what happens to each; nothing is stopped without your confirmation.</p>
      {unrecoverable.map(({ view, recommendation }) => (
        <TaskCard key={view.record.id} view={view} elapsedMs={elapsedMs(fetchedAt)}>
          <div className={`recommendation recommendation-${recommendation.action}`} data-testid="task-recommendation">
            <strong>Recommended: {recommendation.action}.</strong> {recommendation.prompt}
          </div>
          {failure?.id === view.record.id && (
            <p className="inline-error" role="alert">
              Could not terminate: {failure.error.message} <code>{failure.error.code}</code>
            </p>
          )}
          {view.state !== 'completed' && view.state !== 'failed' && (
            <div className="task-actions">
              {asking === view.record.id ? (
                <div className="confirm-inline" role="group" aria-label="Confirm terminate" data-testid="terminate-confirm">
                  <span>
                    Stop <code>{view.record.command}</code>
                    {view.record.pid !== null ? ` (pid ${view.record.pid})` : ''}?
                  </span>
                  <button type="button" className="button button-secondary button-small" onClick={() => setAsking(null)}>
                    Cancel
                  </button>
                  <button type="button" className="button button-danger button-small" data-testid="terminate-confirmed" onClick={() => terminate(view.record.id)}>
                    Terminate process
                  </button>
                </div>
              ) : (
                <button type="button" className="button button-secondary button-small" data-testid="terminate" disabled={busy === view.record.id} onClick={() => setAsking(view.record.id)}>
                  {busy === view.record.id ? 'Terminating…' : 'Terminate…'}
                </button>
              )}
            </div>
          )}
        </TaskCard>
      ))}
    </section>
  );
}
