import { useMemo, useState } from 'react';
import type { IndexRow } from '../../../../shared/session';
import { toApiError } from '../../api';
import { ErrorState } from '../../components/ErrorState';
import { useApi } from '../../hooks/api-context';
import { formatCount } from '../../model/format-number';
import { TaskActions } from './TaskActions';
import { Skeleton } from '../../components/Skeleton';
import { useNow } from '../../hooks/use-now';
import { HandoffTasks } from './HandoffTasks';
import { TaskCard } from './TaskCard';
import { displayTask, isLive } from './task-display';
import type { TasksState } from './use-tasks';

/** The lease countdown's tick. */
export const TASK_TICK_MS = 1_000;

/** Background tasks: the open session's leftovers first, then every task, live ones on top. */
export function TaskPanel({ tasks: state, openSessionId, rows = [] }: { tasks: TasksState; openSessionId: string | null; rows?: readonly IndexRow[] }) {
  const api = useApi();
  const now = useNow(TASK_TICK_MS);
  const titles = useMemo(() => new Map(rows.map((row) => [row.id, row.title])), [rows]);
  const [clearing, setClearing] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const { tasks, fetchedAt } = state;
  const elapsed = Math.max(0, now - fetchedAt);
  const elapsedSince = (at: number) => Math.max(0, now - at);

  const finished = (tasks.value ?? []).filter((view) => view.state === 'completed' || view.state === 'failed').length;
  function clearFinished(): void {
    setClearing({ busy: true, error: null });
    api.invoke('tasks:clear-finished', {}).then(
      () => {
        setClearing({ busy: false, error: null });
        tasks.reload();
      },
      (error: unknown) => setClearing({ busy: false, error: toApiError(error).message }),
    );
  }

  let body;
  if (tasks.value === undefined) {
    body = tasks.error !== undefined ? <ErrorState what="Could not load the tasks." error={tasks.error} onRetry={tasks.reload} /> : <Skeleton rows={3} label="Loading tasks…" />;
  } else if (tasks.value.length === 0) {
    body = (
      <div className="state state-placeholder" data-testid="tasks-empty">
        <h2 className="state-title">No background tasks</h2>
        <p className="muted">
          Dev servers, watchers and long builds an agent registers (<code>baton task register</code>) show here with their lease.
        </p>
      </div>
    );
  } else {
    // Live first, then by last change: what needs attention is at the top.
    const sorted = [...tasks.value].sort((a, b) => {
      const live = Number(isLive(displayTask(b, elapsed).state)) - Number(isLive(displayTask(a, elapsed).state));
      return live !== 0 ? live : a.record.updatedAt < b.record.updatedAt ? 1 : a.record.updatedAt > b.record.updatedAt ? -1 : 0;
    });
    body = (
      <div className="task-list" data-testid="task-list">
        {sorted.map((view) => (
          <TaskCard key={view.record.id} view={view} elapsedMs={elapsed} sessionTitle={view.record.sessionId === null ? undefined : titles.get(view.record.sessionId)}>
            <TaskActions view={view} shownState={displayTask(view, elapsed).state} onChanged={tasks.reload} />
          </TaskCard>
        ))}
      </div>
    );
  }

  return (
    <section className="panel task-panel" data-testid="task-panel" aria-labelledby="tasks-title">
      <header className="panel-header">
        <h1 id="tasks-title">Background tasks</h1>
        {finished > 0 && (
          <button type="button" className="button button-secondary button-small" data-testid="tasks-clear-finished" disabled={clearing.busy} onClick={clearFinished}>
            {clearing.busy ? 'Clearing…' : `Clear finished (${formatCount(finished)})`}
          </button>
        )}
        {tasks.error !== undefined && tasks.value !== undefined && <span className="inline-error">Could not refresh: {tasks.error.message}</span>}
      </header>
      {clearing.error !== null && (
        <p className="inline-error" role="alert">
          Could not clear the finished tasks: {clearing.error}
        </p>
      )}
      {openSessionId !== null && <HandoffTasks sessionId={openSessionId} title={titles.get(openSessionId)} elapsedMs={elapsedSince} />}
      {body}
    </section>
  );
}
