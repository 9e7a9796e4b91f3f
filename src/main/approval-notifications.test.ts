import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalEvent } from '../core/approvals/approval-service.js';
import type { ApprovalView } from '../shared/approvals.js';
import { DEFAULT_PREFERENCES, type Preferences } from '../shared/preferences.js';
import { callsOf, Notification, resetFakeElectron } from './test-support/fake-electron.js';

vi.mock('electron', () => import('./test-support/fake-electron.js'));

const { bindApprovalNotifications, NOTIFICATION_BODY_LIMIT } = await import('./approval-notifications.js');

function view(requestId: string, level: 'low' | 'medium' | 'high', command = 'rm -rf build', decided = false): ApprovalView {
  return {
    request: {
      type: 'request',
      schemaVersion: 1,
      requestId,
      sessionId: `s-${requestId}`,
      tool: 'Bash',
      input: { command },
      cwd: '/work/repo',
      workspaceRoot: '/work/repo',
      risk: { level, reasons: level === 'low' ? [] : [{ rule: 'recursive-delete', message: 'deletes files recursively', level }] },
      createdAt: '2026-11-30T12:00:00.000Z',
      expiresAt: '2026-11-30T12:05:00.000Z',
    },
    decision: decided ? ({ type: 'decision', requestId, decision: 'deny', by: 'person' } as unknown as ApprovalView['decision']) : null,
  } as ApprovalView;
}

/** An approval service stand-in: the real one's events and pending list, driven by the test. */
function fakeApprovals() {
  const listeners = new Set<(event: ApprovalEvent) => void>();
  const pending = new Map<string, ApprovalView>();
  return {
    onChange(listener: (event: ApprovalEvent) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    listPending: () => [...pending.values()],
    request(v: ApprovalView) {
      pending.set(v.request.requestId, v);
      for (const l of listeners) l({ type: 'request', sessionId: v.request.sessionId, view: v });
    },
    decide(v: ApprovalView) {
      pending.delete(v.request.requestId);
      for (const l of listeners) l({ type: 'decision', sessionId: v.request.sessionId, view: v });
    },
    listenerCount: () => listeners.size,
  };
}

let prefs: Preferences;
beforeEach(() => {
  resetFakeElectron();
  prefs = structuredClone(DEFAULT_PREFERENCES);
});

function bind(approvals = fakeApprovals()) {
  const focused: string[] = [];
  const off = bindApprovalNotifications({ approvals, preferences: () => prefs, focusRequest: (r) => focused.push(r.requestId) });
  return { approvals, focused, off };
}

describe('approval notifications', () => {
  it('a request notifies with its risk level; high risk is critical; the sound follows the preference', () => {
    const { approvals } = bind();
    approvals.request(view('a', 'high'));
    prefs.approvalSound = true;
    approvals.request(view('b', 'low', 'ls'));
    const [high, low] = Notification.instances;
    expect(high!.options).toMatchObject({ title: 'Approval needed (HIGH RISK)', body: 'Bash: rm -rf build — deletes files recursively', urgency: 'critical', silent: true });
    expect(low!.options).toMatchObject({ title: 'Approval needed (low risk)', body: 'Bash: ls', urgency: 'normal', silent: false });
    expect(high!.shown && low!.shown).toBe(true);
  });

  it('click focuses the window on that request', () => {
    const { approvals, focused } = bind();
    approvals.request(view('a', 'medium'));
    Notification.instances[0]!.click();
    expect(focused).toEqual(['a']);
  });

  it('the badge counts pending approvals, and a decision elsewhere closes its notification', () => {
    const { approvals, off } = bind();
    const a = view('a', 'medium');
    approvals.request(a);
    approvals.request(view('b', 'high'));
    let closed = false;
    Notification.instances[0]!.on('close', () => (closed = true));
    approvals.decide(a);
    expect(closed).toBe(true);
    expect(callsOf('app.setBadgeCount')).toEqual([[0], [1], [2], [1]]);
    off();
    expect(approvals.listenerCount()).toBe(0);
    expect(callsOf('app.setBadgeCount').at(-1)).toEqual([0]);
  });

  it('respects the preferences: off, or below the minimum risk, no notification (the badge still counts)', () => {
    const { approvals } = bind();
    prefs.notifications = { approvals: true, minimumRisk: 'high' };
    approvals.request(view('a', 'medium'));
    prefs.notifications = { approvals: false, minimumRisk: 'low' };
    approvals.request(view('b', 'high'));
    expect(Notification.instances).toHaveLength(0);
    expect(callsOf('app.setBadgeCount').at(-1)).toEqual([2]);
  });

  it('where notifications are unsupported nothing is shown', () => {
    Notification.supported = false;
    const { approvals } = bind();
    approvals.request(view('a', 'high'));
    expect(Notification.instances).toHaveLength(0);
  });

  it('a long command is cut to the body limit', () => {
    const { approvals } = bind();
    approvals.request(view('a', 'low', 'x'.repeat(1_000)));
    const body = Notification.instances[0]!.options.body as string;
    expect(body.length).toBe(NOTIFICATION_BODY_LIMIT);
    expect(body.endsWith('…')).toBe(true);
  });
});
