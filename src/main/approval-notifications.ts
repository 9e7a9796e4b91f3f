import { app, Notification } from 'electron';
import type { ApprovalService } from '../core/approvals/approval-service.js';
import type { ApprovalRequestRecord } from '../shared/approvals.js';
import { notifiesFor, type Preferences } from '../shared/preferences.js';

/** A notification body is a glance, not the request: the full command is in the window. */
export const NOTIFICATION_BODY_LIMIT = 180;

const RISK_TITLE: Record<string, string> = { low: 'low risk', medium: 'medium risk', high: 'HIGH RISK' };

export function notificationFor(request: ApprovalRequestRecord): { title: string; body: string; urgency: 'normal' | 'critical' } {
  const level = request.risk.level;
  const what = typeof request.input.command === 'string' ? request.input.command : typeof request.input.file_path === 'string' ? request.input.file_path : '';
  const reason = request.risk.reasons[0]?.message;
  const body = [`${request.tool}${what ? `: ${what}` : ''}`, reason].filter(Boolean).join(' — ');
  return {
    title: `Approval needed (${RISK_TITLE[level] ?? level})`,
    body: body.length > NOTIFICATION_BODY_LIMIT ? `${body.slice(0, NOTIFICATION_BODY_LIMIT - 1)}…` : body,
    urgency: level === 'high' ? 'critical' : 'normal',
  };
}

/**
 * Approval requests reach the person even when Baton is behind other windows: a system
 * notification sent from the main process (the renderer's own notification permission stays
 * denied) carrying the risk level, and the dock/launcher badge counting what is still pending.
 * Clicking the notification brings the window forward on that request's session.
 */
export function bindApprovalNotifications(options: {
  approvals: Pick<ApprovalService, 'onChange' | 'listPending'>;
  preferences: () => Preferences;
  focusRequest: (request: ApprovalRequestRecord) => void;
}): () => void {
  const shown = new Map<string, Notification>();
  const updateBadge = () => app.setBadgeCount(options.approvals.listPending().length);
  updateBadge();
  const off = options.approvals.onChange((event) => {
    if (event.type !== 'request' && event.type !== 'decision') return;
    updateBadge();
    const request = event.view.request;
    if (event.type === 'decision') {
      // Decided elsewhere (the terminal, a timeout): the notification no longer asks anything.
      shown.get(request.requestId)?.close();
      shown.delete(request.requestId);
      return;
    }
    const prefs = options.preferences();
    if (!Notification.isSupported() || !notifiesFor(prefs, request.risk.level)) return;
    const { title, body, urgency } = notificationFor(request);
    const notification = new Notification({ title, body, urgency, silent: !prefs.approvalSound });
    notification.on('click', () => options.focusRequest(request));
    notification.on('close', () => shown.delete(request.requestId));
    shown.set(request.requestId, notification);
    notification.show();
  });
  return () => {
    off();
    app.setBadgeCount(0);
  };
}
