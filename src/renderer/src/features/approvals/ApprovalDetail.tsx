import type { ReactNode } from 'react';
import { RelativeTime } from '../../components/RelativeTime';
import { FileChangeView } from './FileChangeView';
import { requestSubject } from './file-change';
import { RiskReasons } from './RiskReasons';
import type { RequestSession } from './session-link';
import { msUntil, timeLeftLabel } from './time-left';
import type { ApprovalView } from './use-approvals';

export interface ApprovalDetailProps {
  view: ApprovalView;
  now: number;
  reason: string;
  onReason: (reason: string) => void;
  busy: boolean;
  /** The session the request belongs to, by title. */
  session: RequestSession;
  onOpenSession: (rowId: string) => void;
  /** Approve once, or for the session with the exact rule the person was shown. */
  onApprove: (grant: { rule: string } | null) => void;
  onDeny: () => void;
}

/** Under a minute left, the countdown turns urgent. */
export const URGENT_MS = 60_000;

/** One request in full: what, where, how risky and why, the change for file writes, time left, and the decision. */
export function ApprovalDetail({ view, now, reason, onReason, busy, session, onOpenSession, onApprove, onDeny }: ApprovalDetailProps) {
  const { request, grant } = view;
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
            {timeLeftLabel(left)}
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
        {request.workspaceRoot !== request.cwd && (
          <Fact label="Workspace">
            <code>{request.workspaceRoot}</code>
          </Fact>
        )}
        <Fact label="Session">
          {session.rowId !== null ? (
            <button type="button" className="button-link approval-session" data-testid="approval-session" title={request.sessionId} onClick={() => onOpenSession(session.rowId!)}>
              {session.title}
            </button>
          ) : (
            <span className="approval-session" data-testid="approval-session" title={request.sessionId}>
              {session.title}
            </span>
          )}
        </Fact>
        {request.client !== undefined && <Fact label="Asked by">{request.client}</Fact>}
        {request.remote !== undefined && (
          // A remote box's request (baton ssh, issue 22): its paths are on that machine, resolved there.
          <Fact label="Machine">
            <span data-testid="approval-remote-host">{request.remote.host ?? 'a remote machine'}</span> <span className="muted">(paths are on that machine)</span>
          </Fact>
        )}
        <Fact label="Asked">
          <RelativeTime iso={request.createdAt} now={now} />
        </Fact>
      </dl>
      {request.workspaceWarning !== undefined && (
        <p className="notice notice-warn" data-testid="workspace-warning">
          {request.workspaceWarning}
        </p>
      )}
      {request.risk.reasons.length > 0 ? (
        <RiskReasons reasons={request.risk.reasons} testId="risk-reasons" />
      ) : (
        <p className="muted risk-none">No risk rule matched.</p>
      )}
      <FileChangeView input={request.input} />
      <div className="decision">
        <GrantPreview grant={grant} />
        <label className="reason-field">
          <span className="muted">Reason (optional, sent back to the agent)</span>
          <input type="text" data-testid="approval-reason" value={reason} onChange={(event) => onReason(event.target.value)} maxLength={2_000} placeholder="e.g. use the test database" />
        </label>
        <div className="decision-buttons">
          <button type="button" className="button button-approve" data-testid="approve" disabled={busy} onClick={() => onApprove(null)}>
            Approve once <kbd>a</kbd>
          </button>
          {grant?.ok === true && (
            <button type="button" className="button button-secondary" data-testid="allow-session" disabled={busy} onClick={() => onApprove({ rule: grant.rule })}>
              Allow for this session
            </button>
          )}
          <button type="button" className="button button-deny" data-testid="deny" disabled={busy} onClick={onDeny}>
            Deny <kbd>d</kbd>
          </button>
        </div>
      </div>
    </article>
  );
}

/** What "Allow for this session" would grant, shown before it is granted; or why it cannot be offered. */
function GrantPreview({ grant }: { grant: ApprovalView['grant'] }) {
  if (grant === undefined) return null;
  if (grant.ok) {
    return (
      <p className="grant-preview" data-testid="grant-preview">
        <span className="muted">Allow for this session grants exactly</span> <code className="grant-rule">{grant.rule}</code>
        <span className="muted"> — {grant.summary}</span>
      </p>
    );
  }
  return (
    <p className="grant-preview grant-refused" data-testid="grant-refused">
      <span className="muted">Cannot be allowed for this session:</span> {grant.reason}. Approve it once or deny it.
    </p>
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
