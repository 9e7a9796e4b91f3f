import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { toApiError } from '../../api';
import { ErrorState } from '../../components/ErrorState';
import { Skeleton } from '../../components/Skeleton';
import { useApi } from '../../hooks/api-context';
import { useNow } from '../../hooks/use-now';
import { isPlainKey, isTypingTarget } from '../../model/keyboard';
import { ApprovalDetail } from './ApprovalDetail';
import { decideFailureMessage } from './decide-message';
import { requestSubject } from './file-change';
import { GrantsList } from './GrantsList';
import { HighRiskDialog } from './HighRiskDialog';
import { requestSession } from './session-link';
import { msUntil, timeLeftLabel } from './time-left';
import type { ApprovalsState, ApprovalView } from './use-approvals';
import type { IndexRow } from '../../../../shared/session';

/** The countdown's tick. */
export const COUNTDOWN_TICK_MS = 1_000;

export interface ApprovalsPanelProps {
  approvals: ApprovalsState;
  /** Sidebar rows (Baton sessions and agent sessions found on disk), for session titles. */
  rows: readonly IndexRow[];
  /** Opens a sidebar row: a Baton session, or a Claude Code / Codex session not yet in Baton. */
  onOpenSession: (rowId: string) => void;
}

type Notice = { kind: 'ok' | 'error'; text: string } | null;

/**
 * The approvals queue (oldest first) and the chosen request. Keyboard, while the queue has focus:
 * `j`/`k` move, `a` approves, `d` denies. A high-risk approval always goes through a dialog.
 */
export function ApprovalsPanel({ approvals, rows, onOpenSession }: ApprovalsPanelProps) {
  const api = useApi();
  const now = useNow(COUNTDOWN_TICK_MS);
  const { pending } = approvals;
  const views = pending.value ?? [];
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const [confirming, setConfirming] = useState<{ view: ApprovalView; allowForSession: boolean } | null>(null);
  const queueRef = useRef<HTMLUListElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const hasQueue = views.length > 0;
  const loaded = pending.value !== undefined;

  // Opening Approvals puts the focus in the queue, so j/k/a/d work at once (the sidebar button
  // kept it before, and a person's "d" went nowhere). When the first request arrives while the pane
  // is open, the focus follows into the queue unless the person is busy elsewhere in the window.
  useEffect(() => {
    if (!loaded) return;
    const active = document.activeElement;
    const idle = active === null || active === document.body || panelRef.current?.contains(active) === true || active.closest('.sidebar-nav') !== null;
    if (!idle) return;
    if (hasQueue) queueRef.current?.focus();
    else panelRef.current?.focus();
  }, [loaded, hasQueue]);

  const chosen = views.find((view) => view.request.requestId === chosenId) ?? views[0] ?? null;
  const chosenIndex = chosen === null ? -1 : views.indexOf(chosen);

  // A new request chosen: the reason typed for the previous one does not carry over.
  useEffect(() => setReason(''), [chosen?.request.requestId]);

  function send(view: ApprovalView, decision: 'approve' | 'deny', options: { allowForSession?: boolean; expectedRule?: string; confirmHighRisk?: boolean } = {}): void {
    setBusy(true);
    setNotice(null);
    const trimmed = reason.trim();
    api
      .invoke('approvals:decide', {
        requestId: view.request.requestId,
        decision,
        ...(trimmed.length > 0 ? { reason: trimmed } : {}),
        ...(options.allowForSession === true ? { allowForSession: true, ...(options.expectedRule !== undefined ? { expectedRule: options.expectedRule } : {}) } : {}),
        ...(options.confirmHighRisk === true ? { confirmHighRisk: true } : {}),
      })
      .then(
        () => {
          const what = requestSubject(view.request.tool, view.request.input);
          setNotice({ kind: 'ok', text: `${decision === 'approve' ? (options.allowForSession === true ? 'Allowed for this session' : 'Approved') : 'Denied'}: ${what}` });
          setReason('');
        },
        (error: unknown) => setNotice({ kind: 'error', text: decideFailureMessage(toApiError(error, 'approvals:decide')) }),
      )
      .finally(() => {
        setBusy(false);
        pending.reload();
      });
  }

  function approve(view: ApprovalView, grant: { rule: string } | null): void {
    if (view.request.risk.level === 'high') setConfirming({ view, allowForSession: grant !== null });
    else send(view, 'approve', grant === null ? {} : { allowForSession: true, expectedRule: grant.rule });
  }

  function move(delta: number): void {
    const next = views[Math.max(0, Math.min(views.length - 1, chosenIndex + delta))];
    if (next !== undefined) setChosenId(next.request.requestId);
  }

  function onQueueKey(event: KeyboardEvent<HTMLElement>): void {
    if (isTypingTarget(event.target) || !isPlainKey(event) || chosen === null || confirming !== null) return;
    switch (event.key) {
      case 'j':
      case 'ArrowDown':
        move(1);
        break;
      case 'k':
      case 'ArrowUp':
        move(-1);
        break;
      case 'a':
        if (!busy) approve(chosen, null);
        break;
      case 'd':
        if (!busy) send(chosen, 'deny');
        break;
      default:
        return;
    }
    event.preventDefault();
  }

  if (pending.value === undefined) {
    if (pending.error !== undefined) return <ErrorState what="Could not load the approval requests." error={pending.error} onRetry={pending.reload} />;
    return <Skeleton rows={3} label="Loading approval requests…" />;
  }

  // Identical calls (the bridge's groupKey) are counted for display; each is still decided on its own.
  const groups = new Map<string, number>();
  for (const view of views) if (view.request.groupKey !== undefined) groups.set(view.request.groupKey, (groups.get(view.request.groupKey) ?? 0) + 1);

  return (
    <section className="panel approvals-panel" data-testid="approvals-panel" aria-labelledby="approvals-title" tabIndex={-1} ref={panelRef}>
      <header className="panel-header">
        <h1 id="approvals-title">Approvals</h1>
        <span className="muted">{views.length === 0 ? 'Nothing is waiting.' : `${views.length} waiting, oldest first`}</span>
        <span className="panel-keys muted" aria-hidden="true">
          <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>a</kbd> approve · <kbd>d</kbd> deny
        </span>
      </header>
      {notice !== null && (
        <p className={notice.kind === 'ok' ? 'notice notice-ok' : 'inline-error'} role={notice.kind === 'ok' ? 'status' : 'alert'} data-testid="approval-notice">
          {notice.text}
        </p>
      )}
      {pending.error !== undefined && <p className="inline-error">Could not refresh: {pending.error.message}</p>}
      {views.length === 0 ? (
        <div className="state state-placeholder" data-testid="approvals-empty">
          <h2 className="state-title">No requests waiting</h2>
          <p className="muted">
            When an agent asks to run a tool (for example through <code>baton approve --hook claude</code>), the request appears here.
          </p>
        </div>
      ) : (
        <div className="approvals-body">
          <ul className="approval-queue" role="listbox" aria-label="Waiting requests" tabIndex={0} ref={queueRef} onKeyDown={onQueueKey} data-testid="approval-queue" aria-activedescendant={chosen ? `approval-${chosen.request.requestId}` : undefined}>
            {views.map((view) => {
              const left = msUntil(view.request.expiresAt, now);
              const alike = view.request.groupKey === undefined ? 1 : (groups.get(view.request.groupKey) ?? 1);
              const session = requestSession({ ...view.request, link: view.link }, rows);
              return (
                <li
                  key={view.request.requestId}
                  id={`approval-${view.request.requestId}`}
                  role="option"
                  aria-selected={view === chosen}
                  className="approval-item"
                  data-testid="approval-item"
                  data-request-id={view.request.requestId}
                  data-risk={view.request.risk.level}
                  onClick={() => {
                    setChosenId(view.request.requestId);
                    queueRef.current?.focus();
                  }}
                >
                  <span className="approval-item-top">
                    <span className={`risk-dot risk-dot-${view.request.risk.level}`} title={`${view.request.risk.level} risk`} />
                    <strong>{view.request.tool}</strong>
                    <span className="muted approval-item-left" data-testid="approval-item-left">
                      {timeLeftLabel(left)}
                    </span>
                  </span>
                  <code className="approval-item-subject">{requestSubject(view.request.tool, view.request.input)}</code>
                  <span className="approval-item-session muted" data-testid="approval-item-session">
                    {session.title}
                    {alike > 1 && (
                      <span className="approval-item-alike" data-testid="approval-item-alike" title="The same call is waiting more than once; each is decided on its own">
                        {' '}
                        · asked {alike}×
                      </span>
                    )}
                  </span>
                </li>
              );
            })}
          </ul>
          {chosen !== null && (
            <ApprovalDetail
              key={chosen.request.requestId}
              view={chosen}
              now={now}
              reason={reason}
              onReason={setReason}
              busy={busy}
              session={requestSession({ ...chosen.request, link: chosen.link }, rows)}
              onOpenSession={onOpenSession}
              onApprove={(grant) => approve(chosen, grant)}
              onDeny={() => send(chosen, 'deny')}
            />
          )}
        </div>
      )}
      <GrantsList now={now} rows={rows} onOpenSession={onOpenSession} />
      {confirming !== null && (
        <HighRiskDialog
          view={confirming.view}
          allowForSession={confirming.allowForSession}
          onCancel={() => {
            setConfirming(null);
            queueRef.current?.focus();
          }}
          onConfirm={() => {
            const { view, allowForSession } = confirming;
            setConfirming(null);
            send(view, 'approve', { allowForSession, confirmHighRisk: true });
          }}
        />
      )}
    </section>
  );
}
