import { beforeEach, describe, expect, it, vi } from 'vitest';
import { app, BrowserWindow, fakeEvent, resetFakeElectron, webContents, type FakeWebContents } from './test-support/fake-electron.js';

vi.mock('electron', () => import('./test-support/fake-electron.js'));

const { guardAllWebContents } = await import('./web-contents-guard.js');

beforeEach(() => {
  resetFakeElectron();
  guardAllWebContents();
});

/** Every way a webContents can come into being: our window, one Electron makes on its own (devtools, webview). */
const makers: [string, () => FakeWebContents][] = [
  ['a BrowserWindow', () => (new BrowserWindow({}) as unknown as { webContents: FakeWebContents }).webContents],
  ['a webContents created without a window', () => webContents.createForTest()],
];

describe.each(makers)('web-contents-created guard on %s', (_name, make) => {
  it('prevents navigation, redirects and frame navigation to anywhere', () => {
    const contents = make();
    for (const url of ['https://evil.example/', 'file:///etc/passwd', 'app://baton/index.html', 'javascript:alert(1)']) {
      expect(contents.tryNavigate(url, 'will-navigate'), url).toBe(true);
      expect(contents.tryNavigate(url, 'will-redirect'), url).toBe(true);
      expect(contents.tryNavigate(url, 'will-frame-navigate'), url).toBe(true);
    }
  });

  it('denies window.open and target=_blank', () => {
    const contents = make();
    for (const url of ['https://example.com/', 'about:blank', 'app://baton/index.html']) expect(contents.windowOpenHandler!({ url })).toEqual({ action: 'deny' });
  });

  it('prevents webview attachment', () => {
    const contents = make();
    const event = fakeEvent();
    contents.emit('will-attach-webview', event, { preload: '/tmp/evil.js' }, { src: 'https://evil.example/' });
    expect(event.defaultPrevented).toBe(true);
  });

  it('denies every permission request and check of its session', async () => {
    const contents = make();
    for (const permission of ['media', 'notifications', 'geolocation', 'midi', 'pointerLock', 'fullscreen', 'openExternal', 'clipboard-sanitized-write']) {
      expect(await contents.session.requestPermission(contents, permission), permission).toBe(false);
      expect(contents.session.permissionCheckHandler!(contents, permission), permission).toBe(false);
    }
  });
});

describe('web-contents-created guard', () => {
  it('is installed app-wide: one listener on app, applied to each new webContents', () => {
    expect(app.listenerCount('web-contents-created')).toBe(1);
    const a = webContents.createForTest();
    const b = webContents.createForTest();
    expect(a.listenerCount('will-navigate')).toBe(1);
    expect(b.listenerCount('will-attach-webview')).toBe(1);
  });
});
