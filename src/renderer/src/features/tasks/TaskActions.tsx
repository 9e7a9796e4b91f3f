import { useState } from 'react';
import type { TaskState } from '../../../../shared/tasks';
import { toApiError } from '../../api';
import { useApi } from '../../hooks/api-context';
import { formatCount } from '../../model/format-number';
import { StopTask } from './StopTask';
import { isLive, type TaskView } from './task-display';

type Log = { status: 'closed' } | { status: 'loading' } | { status: 'open'; path: string; text: string; bytes: number; shownBytes: number } | { status: 'failed'; message: string; code: string };

/**
 * What a person can do with one task: stop it (asks, pid checked by the host), read its log
 * (the end of the file, from the host), open the page it serves on this machine's port.
 */
export function TaskActions({ view, shownState, onChanged }: { view: TaskView; shownState: TaskState; onChanged: () => void }) {
  const api = useApi();
  const { record } = view;
  const [log, setLog] = useState<Log>({ status: 'closed' });
  const live = isLive(shownState);
  // An orphaned task's process may still run: it can be stopped too (the host checks the pid).
  const stoppable = shownState !== 'completed' && shownState !== 'failed' && record.pid !== null;

  function toggleLog(): void {
    if (log.status === 'open' || log.status === 'failed') return setLog({ status: 'closed' });
    setLog({ status: 'loading' });
    api.invoke('tasks:log', { id: record.id }).then(
      (value) => setLog({ status: 'open', ...value }),
      (error: unknown) => {
        const failure = toApiError(error);
        setLog({ status: 'failed', message: failure.message, code: failure.code });
      },
    );
  }

  return (
    <>
      <div className="task-actions" data-testid="task-actions">
        {stoppable && <StopTask task={record} onDone={onChanged} />}
        {record.logPath !== null && (
          <button type="button" className="button button-secondary button-small" data-testid="task-open-log" aria-expanded={log.status === 'open'} onClick={toggleLog}>
            {log.status === 'open' ? 'Hide log' : log.status === 'loading' ? 'Reading the log…' : 'Open log'}
          </button>
        )}
        {live && record.port !== null && (
          <a className="button button-secondary button-small" data-testid="task-open-port" href={`http://localhost:${record.port}/`} target="_blank" rel="noreferrer">
            Open localhost:{record.port}
          </a>
        )}
      </div>
      {log.status === 'failed' && (
        <p className="inline-error" role="alert">
          Could not read the log: {log.message} <code>{log.code}</code>
        </p>
      )}
      {log.status === 'open' && (
        <figure className="task-log-view" data-testid="task-log-view">
          <figcaption className="muted">
            <code>{log.path}</code>
            {log.shownBytes < log.bytes ? ` · the last ${formatCount(log.shownBytes)} of ${formatCount(log.bytes)} bytes` : ''}
          </figcaption>
          <pre className="task-log" tabIndex={0} aria-label={`Log of ${record.command || record.kind}`}>
            {log.text}
          </pre>
        </figure>
      )}
    </>
  );
}
