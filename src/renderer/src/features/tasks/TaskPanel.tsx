import { ErrorState } from '../../components/ErrorState';
import { Skeleton } from '../../components/Skeleton';
import { useNow } from '../../hooks/use-now';
import { HandoffTasks } from './HandoffTasks';
import { TaskCard } from './TaskCard';
import { displayTask, isLive } from './task-display';
import type { TasksState } from './use-tasks';

/** The lease countdown's tick. */
export const TASK_TICK_MS = 1_000;

/** Background tasks: the open session's leftovers first, then every task, live ones on top. */
export function TaskPanel({ tasks: state, openSessionId }: { tasks: TasksState; openSessionId: string | null }) {
  const now = useNow(TASK_TICK_MS);
  const { tasks, fetchedAt } = state;
  const elapsed = Math.max(0, now - fetchedAt);
  const elapsedSince = (at: number) => Math.max(0, now - at);

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
          <TaskCard key={view.record.id} view={view} elapsedMs={elapsed} />
        ))}
      </div>
    );
  }

  return (
    <section className="panel task-panel" data-testid="task-panel" aria-labelledby="tasks-title">
      <header className="panel-header">
        <h1 id="tasks-title">Background tasks</h1>
        {tasks.error !== undefined && tasks.value !== undefined && <span className="inline-error">Could not refresh: {tasks.error.message}</span>}
      </header>
      {openSessionId !== null && <HandoffTasks sessionId={openSessionId} elapsedMs={elapsedSince} />}
      {body}
    </section>
  );
}
