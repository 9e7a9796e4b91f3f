import { useCallback, useEffect, useState } from 'react';
import { useApi } from '../../hooks/api-context';
import { useRemote } from '../../hooks/use-remote';
import { StopTask } from './StopTask';
import { TaskCard } from './TaskCard';

/**
 * The unfinished tasks a handed-off session left behind that cannot simply keep running here,
 * each with what to do about it; Terminate asks first, then sends `confirmed: true`.
 */
export function HandoffTasks({ sessionId, title, elapsedMs }: { sessionId: string; title?: string; elapsedMs: (fetchedAt: number) => number }) {
  const api = useApi();
  const load = useCallback(() => api.invoke('tasks:handoff', { sessionId }), [api, sessionId]);
  const remote = useRemote(`tasks:handoff:${sessionId}`, load);
  const { reload } = remote;
  const [fetchedAt, setFetchedAt] = useState(() => Date.now());
  useEffect(() => api.on('tasks:changed', () => reload()), [api, reload]);
  useEffect(() => setFetchedAt(Date.now()), [remote.value]);

  const unrecoverable = (remote.value ?? []).filter((entry) => !entry.view.record.recoverable);
  if (remote.error !== undefined && remote.value === undefined) {
    return <p className="inline-error">Could not load the tasks this session left behind: {remote.error.message}</p>;
  }
  if (unrecoverable.length === 0) return null;
  return (
    <section className="handoff-tasks" data-testid="handoff-tasks" aria-labelledby="handoff-tasks-title">
      <h2 id="handoff-tasks-title" className="section-title">
        Left behind by the handoff of {title !== undefined && title.length > 0 ? <span title={sessionId}>“{title}”</span> : <code>{sessionId}</code>}
      </h2>
      <p className="muted">These tasks cannot be taken over here. Decide what happens to each; nothing is stopped without your confirmation.</p>
      {unrecoverable.map(({ view, recommendation }) => (
        <TaskCard key={view.record.id} view={view} elapsedMs={elapsedMs(fetchedAt)}>
          <div className={`recommendation recommendation-${recommendation.action}`} data-testid="task-recommendation">
            <strong>Recommended: {recommendation.action}.</strong> {recommendation.prompt}
          </div>
          {view.state !== 'completed' && view.state !== 'failed' && (
            <div className="task-actions">
              <StopTask task={view.record} onDone={reload} label="Terminate" />
            </div>
          )}
        </TaskCard>
      ))}
    </section>
  );
}
