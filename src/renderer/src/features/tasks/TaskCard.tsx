import type { ReactNode } from 'react';
import { displayTask, formatLease, type TaskView } from './task-display';

/** One task: a state chip that never over-claims, the lease countdown, command, pid/port, logs, outcome. */
export function TaskCard({ view, elapsedMs, sessionTitle, children }: { view: TaskView; elapsedMs: number; sessionTitle?: string; children?: ReactNode }) {
  const { record } = view;
  const shown = displayTask(view, elapsedMs);
  const outcome = record.outcome;
  const lines = outcome?.lastLogLines ?? [];
  return (
    <article className="task-card" data-testid="task" data-task-id={record.id} data-state={shown.state}>
      <header className="task-top">
        <span className={`chip chip-${shown.state}`} data-testid="task-state">
          {shown.state}
        </span>
        <code className="task-command" title={record.command}>
          {record.command || record.kind}
        </code>
        {shown.leaseLeftMs !== null && (
          <span className="task-lease muted" data-testid="task-lease" title="Lease left before the task counts as orphaned">
            lease {formatLease(shown.leaseLeftMs)}
          </span>
        )}
      </header>
      {shown.note !== null && <p className="task-note muted">{shown.note}</p>}
      <dl className="task-facts">
        <div>
          <dt>Kind</dt>
          <dd>{record.kind}</dd>
        </div>
        {record.pid !== null && (
          <div>
            <dt>PID</dt>
            <dd data-testid="task-pid">{record.pid}</dd>
          </div>
        )}
        {record.port !== null && (
          <div>
            <dt>Port</dt>
            <dd data-testid="task-port">{record.port}</dd>
          </div>
        )}
        {record.sessionId !== null && (
          <div>
            <dt>Session</dt>
            <dd data-testid="task-session" title={record.sessionId}>
              {sessionTitle !== undefined && sessionTitle.length > 0 ? sessionTitle : <code>{record.sessionId}</code>}
            </dd>
          </div>
        )}
        {outcome !== null && (
          <div>
            <dt>Exit code</dt>
            <dd data-testid="task-exit">{outcome.exitCode ?? '—'}</dd>
          </div>
        )}
        <div>
          <dt>Recoverable</dt>
          <dd>{record.recoverable ? 'yes' : 'no'}</dd>
        </div>
      </dl>
      {outcome?.reason !== null && outcome?.reason !== undefined && <p className="task-reason">{outcome.reason}</p>}
      {outcome?.result !== undefined && (
        <details className="task-result">
          <summary>Result</summary>
          <pre>{JSON.stringify(outcome.result, null, 2)}</pre>
        </details>
      )}
      {lines.length > 0 && (
        <pre className="task-log" data-testid="task-log" aria-label="Last log lines">
          {lines.join('\n')}
        </pre>
      )}
      {record.logPath !== null && lines.length === 0 && (
        <p className="muted task-logpath">
          Log: <code>{record.logPath}</code>
        </p>
      )}
      {children}
    </article>
  );
}
