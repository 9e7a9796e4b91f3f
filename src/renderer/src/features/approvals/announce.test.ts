// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { approvalView } from './approval-fixture';
import { announce } from './use-approvals';

/** happy-dom has no Notification API: this is the thinnest stand-in that records what the page does with it. */
function fakeNotification(permission: NotificationPermission) {
  const shown: Array<{ title: string; body: string | undefined }> = [];
  let asked = 0;
  class FakeNotification {
    static permission = permission;
    static requestPermission = () => {
      asked += 1;
      return Promise.resolve(permission);
    };
    constructor(title: string, options?: NotificationOptions) {
      shown.push({ title, body: options?.body });
    }
  }
  vi.stubGlobal('Notification', FakeNotification);
  return { shown, asked: () => asked };
}

afterEach(() => vi.unstubAllGlobals());

describe('announce', () => {
  it('permission already granted: an OS notification with the tool and the command', () => {
    const fake = fakeNotification('granted');
    expect(announce(approvalView('r1'))).toBe('system');
    expect(fake.shown).toEqual([{ title: 'Approval needed: Bash', body: 'npm test' }]);
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
