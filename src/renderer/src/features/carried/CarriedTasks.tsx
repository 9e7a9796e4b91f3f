import { useCallback, useEffect } from 'react';
import { CopyableCode } from '../../components/CopyableCode';
import { useApi } from '../../hooks/api-context';
import { useRemote } from '../../hooks/use-remote';
import { StopTask } from '../tasks/StopTask';

const STATE_LABEL: Record<string, string> = {
  running: 'running',
  stale: 'process gone',
  orphaned: 'agent gone',
  unverified: 'not verifiable here',
  completed: 'completed',
  failed: 'failed',
  killed: 'killed',
  exited: 'exited',
};

/**
 * The background tasks this session carries, registered or found in its imported log, each with
 * a state that never claims "running" for a process that is gone, and what to do: terminate (with
 * a confirmation) or restart here with the exact command.
 */
export function CarriedTasks({ sessionId }: { sessionId: string }) {
  const api = useApi();
  const load = useCallback(() => api.invoke('tasks:carried', { sessionId }), [api, sessionId]);
  const remote = useRemote(`tasks:carried:${sessionId}`, load);
  const { reload } = remote;
  useEffect(() => api.on('tasks:changed', () => reload()), [api, reload]);
  useEffect(() => api.on('session:changed', (e) => e.id === sessionId && reload()), [api, sessionId, reload]);

  if (remote.value === undefined) {
    return remote.error ? <p className="inline-error">Could not load the session's tasks: {remote.error.message}</p> : null;
  }
  if (remote.value.length === 0) return null;

  return (
    <section className="carried-tasks" aria-labelledby="carried-tasks-title" data-testid="carried-tasks">
      <h2 id="carried-tasks-title" className="section-title">
        Background tasks <span className="muted">· {remote.value.length}</span>
      </h2>
      <ul className="carried-task-list">
        {remote.value.map(({ task, shownState, canTerminate, recommendation }) => (
          <li key={task.id} className="carried-task" data-testid="carried-task" data-task-id={task.id} data-state={shownState}>
            <div className="carried-task-top">
              <span className={`chip chip-${shownState}`} data-testid="carried-task-state">
                {STATE_LABEL[shownState] ?? shownState}
              </span>
              <code className="task-command">{task.command || task.kind}</code>
              <span className="muted">
                {task.kind}
                {task.pid !== null && task.pid !== undefined ? ` · pid ${task.pid}` : ''}
                {task.port !== null && task.port !== undefined ? ` · port ${task.port}` : ''}
                {task.origin !== undefined && task.origin !== 'baton' ? ` · from ${task.origin === 'claude' ? 'Claude Code' : 'Codex'}` : ''}
              </span>
            </div>
            <p className={`recommendation recommendation-${recommendation.actions[0]}`} data-testid="carried-task-recommendation">
              <strong>Recommended: {recommendation.actions.map((a) => (a === 'restart' ? 'restart here' : a)).join(' or ')}.</strong> {recommendation.prompt}
            </p>
            {recommendation.restartCommand !== null && recommendation.actions.includes('restart') && (
              <div data-testid="restart-command">
                <CopyableCode text={recommendation.restartCommand} label="Copy restart command" />
              </div>
            )}
            {canTerminate && <StopTask task={task} onDone={reload} label="Terminate" testId="carried-terminate" />}
          </li>
        ))}
      </ul>
    </section>
  );
}
