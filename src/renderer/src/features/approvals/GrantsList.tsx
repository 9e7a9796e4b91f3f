import { useCallback, useEffect, useState } from 'react';
import { toApiError, type ApiError } from '../../api';
import { RelativeTime } from '../../components/RelativeTime';
import { useApi } from '../../hooks/api-context';
import { useRemote } from '../../hooks/use-remote';

/** "Allowed for this session" rules of one session, each with Revoke. */
export function GrantsList({ sessionId, now }: { sessionId: string; now: number }) {
  const api = useApi();
  const load = useCallback(() => api.invoke('grants:list', { sessionId }), [api, sessionId]);
  const grants = useRemote(`grants:list:${sessionId}`, load);
  const { reload } = grants;
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  useEffect(
    () =>
      api.on('approvals:changed', (event) => {
        if (event.sessionId === sessionId) reload();
      }),
    [api, sessionId, reload],
  );

  function revoke(grantId: string): void {
    setBusy(grantId);
    setFailure(null);
    api.invoke('grants:revoke', { sessionId, grantId }).then(
      () => {
        setBusy(null);
        reload();
      },
      (error: unknown) => {
        setBusy(null);
        setFailure(toApiError(error));
        reload();
      },
    );
  }

  return (
    <section className="grants" data-testid="grants" aria-label="Allowed for this session">
      <h3 className="section-title">
        Allowed for session <code>{sessionId}</code>
      </h3>
      {grants.error !== undefined && <p className="inline-error">Could not load: {grants.error.message}</p>}
      {failure !== null && (
        <p className="inline-error" role="alert">
          Could not revoke: {failure.message} <code>{failure.code}</code>
        </p>
      )}
      {grants.value !== undefined && grants.value.length === 0 && <p className="muted">Nothing is allowed beyond the normal rules.</p>}
      {grants.value !== undefined && grants.value.length > 0 && (
        <ul className="grant-list">
          {grants.value.map((grant) => (
            <li key={grant.id} className="grant" data-testid="grant">
              <code className="grant-rule">{grant.rule}</code>
              <span className="muted">
                <RelativeTime iso={grant.createdAt} now={now} />
              </span>
              <button type="button" className="button-link button-link-danger" onClick={() => revoke(grant.id)} disabled={busy === grant.id}>
                {busy === grant.id ? 'Revoking…' : 'Revoke'}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
