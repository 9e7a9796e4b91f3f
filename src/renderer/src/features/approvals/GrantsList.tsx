import { useCallback, useEffect, useState } from 'react';
import { toApiError, type ApiError } from '../../api';
import { RelativeTime } from '../../components/RelativeTime';
import { useApi } from '../../hooks/api-context';
import { useRemote } from '../../hooks/use-remote';
import type { IndexRow } from '../../../../shared/session';
import type { Grant } from '../../../../shared/approvals';
import { requestSession } from './session-link';

export interface GrantsListProps {
  now: number;
  /** Sidebar rows, for session titles. */
  rows: readonly IndexRow[];
  onOpenSession: (rowId: string) => void;
}

/**
 * Every "allowed for this session" rule in force, of every session, grouped by session title,
 * each with Revoke. Always shown in the Approvals pane, whether or not anything is waiting or a
 * session is open: a grant one cannot find is a grant one cannot take back.
 */
export function GrantsList({ now, rows, onOpenSession }: GrantsListProps) {
  const api = useApi();
  const load = useCallback(() => api.invoke('grants:list', {}), [api]);
  const grants = useRemote('grants:list:all', load);
  const { reload } = grants;
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  useEffect(() => api.on('approvals:changed', () => reload()), [api, reload]);

  function revoke(grant: Grant): void {
    setBusy(grant.id);
    setFailure(null);
    api.invoke('grants:revoke', { sessionId: grant.sessionId, grantId: grant.id }).then(
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

  const groups = new Map<string, Grant[]>();
  for (const grant of grants.value ?? []) groups.set(grant.sessionId, [...(groups.get(grant.sessionId) ?? []), grant]);

  return (
    <section className="grants" data-testid="grants" aria-labelledby="grants-title">
      <h2 id="grants-title" className="section-title">
        Allowed for a session
      </h2>
      {grants.error !== undefined && <p className="inline-error">Could not load: {grants.error.message}</p>}
      {failure !== null && (
        <p className="inline-error" role="alert">
          Could not revoke: {failure.message} <code>{failure.code}</code>
        </p>
      )}
      {grants.value !== undefined && grants.value.length === 0 && (
        <p className="muted" data-testid="grants-empty">
          Nothing is allowed beyond the normal rules. “Allow for this session” adds a narrow rule here (you see it before it is granted), until you revoke it.
        </p>
      )}
      {[...groups].map(([sessionId, list]) => {
        const session = requestSession(list[0]!, rows);
        return (
          <div key={sessionId} className="grant-group" data-testid="grant-group" data-session-id={sessionId}>
            <h3 className="grant-session">
              {session.rowId !== null ? (
                <button type="button" className="button-link" onClick={() => onOpenSession(session.rowId!)} title={sessionId}>
                  {session.title}
                </button>
              ) : (
                <span title={sessionId}>{session.title}</span>
              )}
            </h3>
            <ul className="grant-list">
              {list.map((grant) => (
                <li key={grant.id} className="grant" data-testid="grant">
                  <code className="grant-rule">{grant.rule}</code>
                  <span className="muted">
                    <RelativeTime iso={grant.createdAt} now={now} />
                  </span>
                  <button type="button" className="button-link button-link-danger" onClick={() => revoke(grant)} disabled={busy === grant.id} aria-label={`Revoke ${grant.rule}`}>
                    {busy === grant.id ? 'Revoking…' : 'Revoke'}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </section>
  );
}
