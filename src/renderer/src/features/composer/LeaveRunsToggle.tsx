import { useCallback, useEffect, useState } from 'react';
import { toApiError } from '../../api';
import { useApi } from '../../hooks/api-context';
import { useRemote } from '../../hooks/use-remote';

/**
 * "Leave runs going when Baton closes": the desktop's client-local preference, read by the desktop
 * shell when it closes the host. The browser host (`baton serve`) is closed from its terminal, not
 * from this page, so there the choice is BATON_LEAVE_RUNS_ON_CLOSE=1 and this says so instead.
 */
export function LeaveRunsToggle() {
  const api = useApi();
  const loadInfo = useCallback(() => api.invoke('host:info', {}), [api]);
  const info = useRemote('host:info', loadInfo);
  const [leave, setLeave] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.invoke('prefs:get', {}).then(
      (prefs) => live && setLeave(prefs.leaveRunsOnClose),
      (e: unknown) => live && setError(toApiError(e, 'prefs:get').message),
    );
    return () => {
      live = false;
    };
  }, [api]);

  if (info.value === undefined) return null;
  if (info.value.host !== 'electron') {
    return (
      <span className="muted composer-leave-runs" data-testid="composer-leave-runs-env">
        Runs stop when <code>baton serve</code> stops (start it with BATON_LEAVE_RUNS_ON_CLOSE=1 to leave them going).
      </span>
    );
  }
  function choose(next: boolean): void {
    setLeave(next);
    setError(null);
    api.invoke('prefs:set', { leaveRunsOnClose: next }).then(
      (prefs) => setLeave(prefs.leaveRunsOnClose),
      (e: unknown) => {
        setLeave(!next);
        setError(toApiError(e, 'prefs:set').message);
      },
    );
  }
  return (
    <label className="composer-leave-runs muted">
      <input type="checkbox" data-testid="composer-leave-runs" checked={leave === true} disabled={leave === null} onChange={(e) => choose(e.target.checked)} /> Leave runs going when Baton
      closes (they show as orphans next time)
      {error !== null && (
        <span className="inline-error" role="alert">
          {' '}
          {error}
        </span>
      )}
    </label>
  );
}
