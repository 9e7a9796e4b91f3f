import type { ReactNode } from 'react';
import { RelativeTime } from '../../components/RelativeTime';
import { FileChangeView } from './FileChangeView';
import { requestSubject } from './file-change';
import { formatTimeLeft, msUntil } from './time-left';
import type { ApprovalView } from './use-approvals';

export interface ApprovalDetailProps {
  view: ApprovalView;
  now: number;
  reason: string;
  onReason: (reason: string) => void;
  busy: boolean;
  onApprove: (allowForSession: boolean) => void;
  onDeny: () => void;
}

/** Under a minute left, the countdown turns urgent. */
export const URGENT_MS = 60_000;

/** One request in full: what, where, how risky and why, the change for file writes, time left, and the decision. */
export function ApprovalDetail({ view, now, reason, onReason, busy, onApprove, onDeny }: ApprovalDetailProps) {
  const { request } = view;
  const left = msUntil(request.expiresAt, now);
  const subject = requestSubject(request.tool, request.input);
  const isCommand = typeof request.input.command === 'string';
  return (
    <article className="approval-detail" data-testid="approval-detail" data-request-id={request.requestId} data-risk={request.risk.level} aria-labelledby="approval-title">
      <header className="approval-header">
        <div className="approval-header-top">
          <span className={`badge badge-risk-${request.risk.level}`} data-testid="approval-risk">
            {request.risk.level} risk
          </span>
          <h2 id="approval-title" className="approval-tool">
            {request.tool}
          </h2>
          <span className={`countdown ${left < URGENT_MS ? 'countdown-urgent' : ''}`} data-testid="approval-countdown" title={`Denied automatically at ${request.expiresAt}`}>
            {left > 0 ? `${formatTimeLeft(left)} left` : 'expired'}
          </span>
        </div>
        <pre className={`approval-subject ${isCommand ? 'approval-command' : ''}`} data-testid="approval-subject">
          {isCommand && <span className="prompt-sign" aria-hidden="true">$ </span>}
          {subject}
        </pre>
      </header>
      <dl className="facts approval-facts">
        <Fact label="Directory">
          <code>{request.cwd}</code>
        </Fact>
        <Fact label="Session">
          <code>{request.sessionId}</code>
        </Fact>
        {request.client !== undefined && <Fact label="Asked by">{request.client}</Fact>}
        <Fact label="Asked">
          <RelativeTime iso={request.createdAt} now={now} />
        </Fact>
      </dl>
      {request.risk.reasons.length > 0 ? (
        <ul className="risk-reasons" data-testid="risk-reasons">
          {request.risk.reasons.map((item) => (
            <li key={item.rule} className={`risk-reason risk-${item.level}`}>
              <span className={`badge badge-risk-${item.level}`}>{item.level}</span> {item.message}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted risk-none">No risk rule matched.</p>
      )}
      <FileChangeView input={request.input} />
      <div className="decision">
        <label className="reason-field">
          <span className="muted">Reason (optional, sent back to the agent)</span>
          <input type="text" data-testid="approval-reason" value={reason} onChange={(event) => onReason(event.target.value)} maxLength={2_000} placeholder="e.g. use the test database" />
        </label>
        <div className="decision-buttons">
          <button type="button" className="button button-approve" data-testid="approve" disabled={busy} onClick={() => onApprove(false)}>
            Approve <kbd>a</kbd>
          </button>
          <button type="button" className="button button-secondary" data-testid="allow-session" disabled={busy} onClick={() => onApprove(true)}>
            Allow for this session
          </button>
          <button type="button" className="button button-deny" data-testid="deny" disabled={busy} onClick={onDeny}>
            Deny <kbd>d</kbd>
          </button>
        </div>
      </div>
    </article>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
