import { useState } from 'react';
import { toApiError, type ApiError } from '../../api';
import { useApi } from '../../hooks/api-context';
import type { TaskView } from './task-display';

/**
 * Stop a task's process: asks first, then sends `confirmed: true`; the host signals only if the
 * pid still belongs to the process that registered (start time checked), else it says why not.
 */
export function StopTask({ view, onDone, label = 'Stop' }: { view: TaskView; onDone: () => void; label?: string }) {
  const api = useApi();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const { record } = view;

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
        <div className="confirm-inline" role="group" aria-label={`Confirm: ${label.toLowerCase()} the task`} data-testid="terminate-confirm">
          <span>
            {label} <code>{record.command || record.kind}</code>
            {record.pid !== null ? ` (pid ${record.pid})` : ''}?
          </span>
          <button type="button" className="button button-secondary button-small" onClick={() => setAsking(false)}>
            Cancel
          </button>
          <button type="button" className="button button-danger button-small" data-testid="terminate-confirmed" onClick={stop}>
            {label} process
          </button>
        </div>
      ) : (
        <button type="button" className="button button-secondary button-small" data-testid="terminate" disabled={busy} onClick={() => setAsking(true)}>
          {busy ? 'Stopping…' : `${label}…`}
        </button>
      )}
      {failure !== null && (
        <p className="inline-error" role="alert" data-testid="terminate-error">
          Could not stop it: {failure.message} <code>{failure.code}</code>
        </p>
      )}
    </>
  );
}
