import { useState } from 'react';
import { toApiError, type ApiError } from '../../api';
import { useApi } from '../../hooks/api-context';

/** What the confirmation names: the task's id, its command (or kind) and pid. */
export interface StoppableTask {
  id: string;
  command: string;
  kind: string;
  pid?: number | null;
}

/**
 * Stop a task's process: asks first, then sends `confirmed: true`; the host signals only if the
 * pid still belongs to the process that registered (start time checked), else it says why not.
 */
export function StopTask({ task: record, onDone, label = 'Stop', testId = 'terminate' }: { task: StoppableTask; onDone: () => void; label?: string; testId?: string }) {
  const api = useApi();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);

  function stop(): void {
    setAsking(false);
    setBusy(true);
    setFailure(null);
    api.invoke('tasks:terminate', { id: record.id, confirmed: true }).then(
      () => {
        setBusy(false);
        onDone();
      },
      (error: unknown) => {
        setBusy(false);
        setFailure(toApiError(error));
        onDone();
      },
    );
  }

  return (
    <>
      {asking ? (
        <div className="confirm-inline" role="group" aria-label={`Confirm: ${label.toLowerCase()} the task`} data-testid={`${testId}-confirm`}>
          <span>
            {label} <code>{record.command || record.kind}</code>
            {record.pid !== null && record.pid !== undefined ? ` (pid ${record.pid})` : ''}?
          </span>
          <button type="button" className="button button-secondary button-small" onClick={() => setAsking(false)}>
            Cancel
          </button>
          <button type="button" className="button button-danger button-small" data-testid={`${testId}-confirmed`} onClick={stop}>
            {label} process
          </button>
        </div>
      ) : (
        <button type="button" className="button button-secondary button-small" data-testid={testId} disabled={busy} onClick={() => setAsking(true)}>
          {busy ? 'Stopping…' : `${label}…`}
        </button>
      )}
      {failure !== null && (
        <p className="inline-error" role="alert" data-testid={`${testId}-error`}>
          Could not {label.toLowerCase()} it: {failure.message} <code>{failure.code}</code>
        </p>
      )}
    </>
  );
}
