import { useCallback, useEffect, useState } from 'react';
import type { ApprovalView } from '../../../../shared/approvals';
import { toApiError } from '../../api';
import { useApi } from '../../hooks/api-context';

/**
 * The run's pending approvals, where the person watches the run: Approve / Deny for each call
 * the agent's hook sent for this session. A high-risk call needs the second, deliberate click
 * the approvals panel asks for too.
 */
export function RunApprovals({ sessionId, externalId }: { sessionId: string; externalId: string | null }) {
  const api = useApi();
  const [pending, setPending] = useState<ApprovalView[]>([]);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    api.invoke('approvals:pending', {}).then(
      (all) => setPending(all.filter((v) => v.request.sessionId === sessionId || v.request.sessionId === externalId || v.link?.batonSessionId === sessionId)),
      (e: unknown) => setError(toApiError(e, 'approvals:pending').message),
    );
  }, [api, sessionId, externalId]);
  useEffect(() => {
    load();
    return api.on('approvals:changed', () => load());
  }, [api, load]);

  function decide(view: ApprovalView, decision: 'approve' | 'deny', confirmHighRisk = false): void {
    setError(null);
    api.invoke('approvals:decide', { requestId: view.request.requestId, decision, confirmHighRisk, ...(decision === 'deny' ? { reason: 'Denied in Baton' } : {}) }).then(
      () => load(),
      (e: unknown) => setError(toApiError(e, 'approvals:decide').message),
    );
  }

  if (pending.length === 0 && error === null) return null;
  return (
    <div className="run-approvals" data-testid="run-approvals">
      {pending.map((view) => {
        const high = view.request.risk.level === 'high';
        const command = view.request.input.command ?? view.request.input.file_path ?? JSON.stringify(view.request.input);
        return (
          <div key={view.request.requestId} className="run-approval" data-testid="run-approval" data-risk={view.request.risk.level}>
            <p>
              <strong>{view.request.tool}</strong> wants to run <code>{String(command)}</code>{' '}
              <span className={`badge risk-${view.request.risk.level}`}>{view.request.risk.level} risk</span>
            </p>
            <div className="run-approval-actions">
              {high && confirming === view.request.requestId ? (
                <button type="button" className="button button-small button-danger" data-testid="run-approve-confirm" onClick={() => decide(view, 'approve', true)}>
                  Yes, run this high-risk call
                </button>
              ) : (
                <button type="button" className="button button-small" data-testid="run-approve" onClick={() => (high ? setConfirming(view.request.requestId) : decide(view, 'approve'))}>
                  Approve
                </button>
              )}
              <button type="button" className="button button-small button-secondary" data-testid="run-deny" onClick={() => decide(view, 'deny')}>
                Deny
              </button>
            </div>
          </div>
        );
      })}
      {error !== null && (
        <p className="inline-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
