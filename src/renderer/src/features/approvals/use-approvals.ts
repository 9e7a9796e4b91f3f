import { useCallback, useEffect, useRef, useState } from 'react';
import type { BatonApi } from '../../api';
import type { UiResponse } from '../../../../shared/ui-contract';
import { useReconnect } from '../../hooks/use-connection';
import { useRemote, type Remote } from '../../hooks/use-remote';
import { requestSubject } from './file-change';

export type ApprovalView = UiResponse<'approvals:pending'>[number];

/** session:changed reasons that can create the Baton session a request links to. */
const SESSION_LINK_REASONS: ReadonlySet<string> = new Set(['import', 'handoff']);

/** How a new request was announced: an OS notification (permission already granted) or an in-app toast. */
export type Announcement = 'system' | 'toast';

/** The OS notification's title: the risk level first, so a glance at the corner of the screen tells how urgent it is. */
export function notificationTitle(view: ApprovalView): string {
  return `Approval needed (${view.request.risk.level} risk): ${view.request.tool}`;
}

/**
 * Announces one new request. The web Notification API is used only when permission was granted
 * before: asking on load is rude, and Electron refuses permission requests anyway. A high-risk
 * request's notification stays until dismissed.
 */
export function announce(view: ApprovalView): Announcement {
  const NotificationApi = typeof Notification === 'function' ? Notification : undefined;
  if (NotificationApi?.permission === 'granted') {
    try {
      new NotificationApi(notificationTitle(view), {
        body: requestSubject(view.request.tool, view.request.input),
        tag: view.request.requestId,
        requireInteraction: view.request.risk.level === 'high',
      });
      return 'system';
    } catch {
      // Some hosts expose the constructor but refuse it (e.g. only service-worker notifications).
    }
  }
  return 'toast';
}

export interface ApprovalsState {
  pending: Remote<ApprovalView[]>;
  /** The newest request announced by a toast, until dismissed or decided. */
  toast: ApprovalView | null;
  dismissToast: () => void;
}

/** Undecided approval requests (oldest first), re-fetched on `approvals:changed` and on reconnect. */
export function useApprovals(api: BatonApi): ApprovalsState {
  const load = useCallback(() => api.invoke('approvals:pending', {}), [api]);
  const pending = useRemote('approvals:pending', load);
  const { reload } = pending;
  useEffect(() => api.on('approvals:changed', () => reload()), [api, reload]);
  // An agent session opened in Baton (or handed off): its requests now link to that session, so fetch the links again.
  useEffect(() => api.on('session:changed', ({ reason }) => SESSION_LINK_REASONS.has(reason) && reload()), [api, reload]);
  useReconnect(api, reload);

  const seen = useRef<Set<string> | null>(null);
  const [toast, setToast] = useState<ApprovalView | null>(null);
  useEffect(() => {
    const views = pending.value;
    if (views === undefined) return;
    const ids = new Set(views.map((view) => view.request.requestId));
    // The first answer is the backlog, not news: only requests that arrive later are announced.
    if (seen.current !== null) {
      const fresh = views.filter((view) => !seen.current!.has(view.request.requestId));
      const newest = fresh[fresh.length - 1];
      if (newest !== undefined && announce(newest) === 'toast') setToast(newest);
    }
    seen.current = ids;
    setToast((current) => (current !== null && !ids.has(current.request.requestId) ? null : current));
  }, [pending.value]);

  const dismissToast = useCallback(() => setToast(null), []);
  return { pending, toast, dismissToast };
}
