import { useCallback, useEffect, useMemo } from 'react';
import type { ApprovalView } from '../../../../shared/approvals';
import type { RehydrationLogEntry } from '../../../../shared/workspace';
import { ErrorState } from '../../components/ErrorState';
import { Skeleton } from '../../components/Skeleton';
import { useApi } from '../../hooks/api-context';
import { useReconnect } from '../../hooks/use-connection';
import { useRemote } from '../../hooks/use-remote';
import { formatDateTime } from '../../model/relative-time';
import { describeStep } from '../workspace/describe-step';
import { shortHash } from '../workspace/format';
import { decisionLabel, sortNewestFirst, summarizeInput } from './approval-summary';
import { readRehydrationLog } from './rehydration-log';

export interface HistoryTabProps {
  sessionId: string;
  /** session.json's `rehydrationLog`, as the session arrived (an unknown extra field). */
  rehydrationLog: unknown;
}

/** What was asked and decided in this session (who, when, why), and every rehydration step taken. */
export function HistoryTab({ sessionId, rehydrationLog }: HistoryTabProps) {
  const api = useApi();
  const load = useCallback(() => api.invoke('approvals:history', { sessionId }), [api, sessionId]);
  const approvals = useRemote(`approvals:history:${sessionId}`, load);
  const { reload } = approvals;
  useEffect(() => api.on('approvals:changed', (event) => event.sessionId === sessionId && reload()), [api, sessionId, reload]);
  useReconnect(api, reload);
  const log = useMemo(() => readRehydrationLog(rehydrationLog), [rehydrationLog]);
  const sorted = useMemo(() => sortNewestFirst(approvals.value ?? []), [approvals.value]);

  return (
    <div className="history" data-testid="history-tab">
      <section aria-labelledby="history-approvals">
        <h2 className="history-heading" id="history-approvals">
          Approvals {approvals.value !== undefined && <span className="muted">· {approvals.value.length}</span>}
        </h2>
        {approvals.value === undefined ? (
          approvals.error !== undefined ? (
            <ErrorState what="Could not read the approvals of this session." error={approvals.error} onRetry={reload} />
          ) : (
            <Skeleton rows={2} label="Reading the approvals…" />
          )
        ) : sorted.length === 0 ? (
          <p className="muted history-empty">No tool asked for approval in this session.</p>
        ) : (
          <ol className="history-list">
            {sorted.map((view) => (
              <ApprovalRow key={view.request.requestId} view={view} />
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby="history-rehydration">
        <h2 className="history-heading" id="history-rehydration">
          Workspace rehydration <span className="muted">· {log.entries.length}</span>
        </h2>
        {log.unreadable > 0 && (
          <p className="notice notice-warn" role="note">
            {log.unreadable} {log.unreadable === 1 ? 'entry' : 'entries'} of the log could not be read (written by a newer Baton?).
          </p>
        )}
        {log.entries.length === 0 ? (
          <p className="muted history-empty">No rehydration step was taken: Baton never changes your files without asking.</p>
        ) : (
          <ol className="history-list">
            {log.entries.map((entry, index) => (
              <RehydrationRow key={`${entry.at}:${index}`} entry={entry} />
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

function ApprovalRow({ view }: { view: ApprovalView }) {
  const { request, decision } = view;
  const outcome = decision === null ? 'pending' : decision.decision === 'approve' ? 'approved' : 'denied';
  return (
    <li className={`history-item history-${outcome}`} data-testid="history-approval" data-outcome={outcome}>
      <div className="history-line">
        <span className={`badge ${outcome === 'approved' ? 'badge-ok' : outcome === 'denied' ? 'badge-fail' : 'badge-warn'}`}>{decisionLabel(view)}</span>
        <span className="tool-name">{request.tool}</span>
        <span className={`badge risk-${request.risk.level}`} title={request.risk.reasons.map((reason) => reason.message).join('\n')}>
          {request.risk.level} risk
        </span>
        <time className="history-time muted" dateTime={decision?.decidedAt ?? request.createdAt}>
          {formatDateTime(decision?.decidedAt ?? request.createdAt)}
        </time>
      </div>
      <code className="history-input" title={JSON.stringify(request.input, null, 2)}>
        {summarizeInput(request.input)}
      </code>
      {decision?.reason != null && decision.reason.length > 0 && <p className="history-reason">“{decision.reason}”</p>}
      {decision?.confirmedHighRisk === true && <p className="history-note muted">High risk: confirmed a second time.</p>}
      {decision?.grantId != null && <p className="history-note muted">Session grant {decision.grantId}</p>}
    </li>
  );
}

function RehydrationRow({ entry }: { entry: RehydrationLogEntry }) {
  return (
    <li className="history-item" data-testid="history-rehydration" data-result={entry.result}>
      <div className="history-line">
        <span className={`badge ${entry.result === 'applied' ? 'badge-ok' : ''}`}>{entry.result === 'applied' ? 'Applied' : 'Unchanged'}</span>
        <span>{describeStep(entry.step, entry.path, entry.targetDir)}</span>
        <time className="history-time muted" dateTime={entry.at}>
          {formatDateTime(entry.at)}
        </time>
      </div>
      {(entry.previousSha256 != null || entry.backupRef != null) && (
        <p className="history-note muted">
          {entry.previousSha256 != null && <>was {shortHash(entry.previousSha256)} </>}
          {entry.expectedSha256 != null && <>→ {shortHash(entry.expectedSha256)} </>}
          {entry.backupRef != null && <>· previous file kept as {entry.backupRef}</>}
        </p>
      )}
    </li>
  );
}
