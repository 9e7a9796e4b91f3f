// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { approvalView } from './approval-fixture';
import { announce } from './use-approvals';

/** happy-dom has no Notification API: this is the thinnest stand-in that records what the page does with it. */
function fakeNotification(permission: NotificationPermission) {
  const shown: Array<{ title: string; body: string | undefined; requireInteraction?: boolean | undefined }> = [];
  let asked = 0;
  class FakeNotification {
    static permission = permission;
    static requestPermission = () => {
      asked += 1;
      return Promise.resolve(permission);
    };
    constructor(title: string, options?: NotificationOptions) {
      shown.push({ title, body: options?.body, requireInteraction: options?.requireInteraction });
    }
  }
  vi.stubGlobal('Notification', FakeNotification);
  return { shown, asked: () => asked };
}

afterEach(() => vi.unstubAllGlobals());

describe('announce', () => {
  it('permission already granted: an OS notification with the risk level, the tool and the command', () => {
    const fake = fakeNotification('granted');
    expect(announce(approvalView('r1'))).toBe('system');
    expect(fake.shown).toEqual([{ title: 'Approval needed (low risk): Bash', body: 'npm test', requireInteraction: false }]);
  });

  it('notification: a high-risk request says so in the title and stays until dismissed', () => {
    const fake = fakeNotification('granted');
    const high = approvalView('r2', { input: { command: 'git push --force origin main' }, risk: { level: 'high', reasons: [{ rule: 'git-force-push', message: 'Rewrites the remote history', level: 'high' }] } });
    expect(announce(high)).toBe('system');
    expect(fake.shown).toEqual([{ title: 'Approval needed (high risk): Bash', body: 'git push --force origin main', requireInteraction: true }]);
  });

  for (const permission of ['default', 'denied'] as const) {
    it(`permission ${permission}: an in-app toast, and the page never asks`, () => {
      const fake = fakeNotification(permission);
      expect(announce(approvalView('r1'))).toBe('toast');
      expect(fake.shown).toEqual([]);
      expect(fake.asked()).toBe(0);
    });
  }

  it('no Notification API at all: a toast', () => {
    vi.stubGlobal('Notification', undefined);
    expect(announce(approvalView('r1'))).toBe('toast');
  });
});
