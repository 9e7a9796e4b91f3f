import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHostServices, type HostServices } from '../core/host/host-services.js';
import { DESKTOP_CAPABILITIES } from '../core/host/capabilities.js';
import { IPC_EVENT, IPC_INVOKE } from '../shared/ipc-channels.js';
import { RENDERER_CSP } from '../shared/csp.js';
import { app, BrowserWindow, callsOf, fakeEvent, fakeState, ipcMain, protocol, resetFakeElectron, session, webContents, type FakeBrowserWindow } from './test-support/fake-electron.js';

vi.mock('electron', () => import('./test-support/fake-electron.js'));

const { runDesktopHost } = await import('./desktop-host.js');
const { URL_MARKER_FLAG } = await import('./deep-links.js');
const { forwardToRunningHost } = await import('./forward.js');

let root: string;
let started: HostServices[] = [];

beforeEach(async () => {
  resetFakeElectron();
  root = await mkdtemp(join(tmpdir(), 'baton-main-'));
  // A built renderer stand-in: out/main beside out/renderer, as electron-vite lays them out.
  await mkdir(join(root, 'out', 'main'), { recursive: true });
  await mkdir(join(root, 'out', 'renderer', 'assets'), { recursive: true });
  await writeFile(join(root, 'out', 'renderer', 'index.html'), '<!doctype html><title>Baton</title>');
  await writeFile(join(root, 'out', 'renderer', 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(root, 'secret.txt'), 'outside the renderer');
  started = [];
});

afterEach(async () => {
  for (const services of started) await services.close().catch(() => undefined);
  await rm(root, { recursive: true, force: true });
});

function host(overrides: { argv?: string[]; startServices?: (dataDir: string) => Promise<HostServices>; defaultApp?: boolean; realForward?: boolean } = {}) {
  const forwarded: string[][] = [];
  const h = runDesktopHost({
    argv: overrides.argv ?? ['/opt/Baton/baton'],
    execPath: '/opt/Baton/baton',
    defaultApp: overrides.defaultApp ?? false,
    mainDir: join(root, 'out', 'main'),
    dataDir: () => join(root, 'data'),
    preferencesDir: () => join(root, 'user-data'),
    startServices:
      overrides.startServices ??
      (async (dataDir) => {
        const services = await startHostServices({ dataDir, kind: 'electron', capabilities: DESKTOP_CAPABILITIES });
        started.push(services);
        return services;
      }),
    forward: async (dataDir, links) => {
      if (overrides.realForward) return forwardToRunningHost(dataDir, links);
      const got: string[] = [];
      links.onReady((link) => got.push(link.kind === 'session' || link.kind === 'handoff' ? link.sessionId : link.kind));
      forwarded.push(got);
      return { reached: true, address: 'test', opened: got, failed: [] };
    },
    platform: 'linux',
    packaged: true,
  });
  return { ...h, forwarded };
}

async function readyHost(overrides: Parameters<typeof host>[0] = {}) {
  const h = host(overrides);
  app.becomeReady();
  await h.started;
  const [window] = BrowserWindow.getAllWindows() as FakeBrowserWindow[];
  return { ...h, window: window! };
}

function selected(window: FakeBrowserWindow): string[] {
  return window.webContents.sent.filter((s) => s.channel === IPC_EVENT && s.args[0] === 'session:select').map((s) => (s.args[1] as { id: string }).id);
}

describe('single instance', () => {
  it('a second launch without the lock quits at once and starts nothing', async () => {
    fakeState.lockGranted = false;
    const h = host();
    app.becomeReady();
    await h.started;
    expect(callsOf('app.quit')).toHaveLength(1);
    expect(BrowserWindow.getAllWindows()).toHaveLength(0);
    expect(callsOf('app.setAsDefaultProtocolClient')).toHaveLength(0);
  });

  it('registers baton:// with the marker flag (and the app path when run as `electron .`)', () => {
    host({ defaultApp: true, argv: ['/usr/bin/electron', '/repo'] });
    expect(callsOf('app.setAsDefaultProtocolClient')).toEqual([['baton', '/opt/Baton/baton', ['/repo', URL_MARKER_FLAG]]]);
  });

  it('second-instance with the marker selects the session and focuses the restored window', async () => {
    const { window } = await readyHost();
    window.finishLoad();
    window.minimized = true;
    app.emit('second-instance', fakeEvent(), ['/opt/Baton/baton', URL_MARKER_FLAG, 'baton://session/s-one'], '/');
    expect(selected(window)).toEqual(['s-one']);
    expect(callsOf('BrowserWindow.restore')).toHaveLength(1);
    expect(window.focused).toBe(true);
  });

  it('second-instance without the marker ignores a URL in argv (a crafted command line) but still focuses', async () => {
    const { window } = await readyHost();
    window.finishLoad();
    app.emit('second-instance', fakeEvent(), ['/opt/Baton/baton', 'baton://session/s-one'], '/');
    expect(selected(window)).toEqual([]);
    expect(window.focused).toBe(true);
  });

  it('the cold-start argv link waits for the window to load', async () => {
    const { window } = await readyHost({ argv: ['/opt/Baton/baton', URL_MARKER_FLAG, 'baton://session/s-cold'] });
    expect(selected(window)).toEqual([]);
    window.finishLoad();
    expect(selected(window)).toEqual(['s-cold']);
  });
});

describe('open-url', () => {
  it('before ready: prevented, queued, delivered once the window has loaded', async () => {
    const h = host();
    const event = fakeEvent();
    app.emit('open-url', event, 'baton://session/s-early');
    expect(event.defaultPrevented).toBe(true);
    app.becomeReady();
    await h.started;
    const [window] = BrowserWindow.getAllWindows() as FakeBrowserWindow[];
    expect(selected(window!)).toEqual([]);
    window!.finishLoad();
    expect(selected(window!)).toEqual(['s-early']);
  });

  it('after the window loaded: delivered at once; a malformed link is dropped', async () => {
    const { window } = await readyHost();
    window.finishLoad();
    app.emit('open-url', fakeEvent(), 'baton://session/../../etc');
    app.emit('open-url', fakeEvent(), 'baton://session/s-late');
    expect(selected(window)).toEqual(['s-late']);
  });
});

describe('the window', () => {
  it('is isolated, sandboxed, without node, with web security, and loads app://baton', async () => {
    const { window } = await readyHost();
    expect(window.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, allowRunningInsecureContent: false });
    expect((window.options.webPreferences as { preload: string }).preload).toBe(join(root, 'out', 'preload', 'index.cjs'));
    expect(callsOf('BrowserWindow.loadURL')).toEqual([['app://baton/index.html']]);
  });

  it('prevents will-navigate and will-redirect', async () => {
    const { window } = await readyHost();
    expect(window.webContents.tryNavigate('https://evil.example/')).toBe(true);
    expect(window.webContents.tryNavigate('app://baton/other.html')).toBe(true);
    expect(window.webContents.tryNavigate('https://evil.example/', 'will-redirect')).toBe(true);
  });

  it('denies every new window; an external http(s) link opens only after the person confirms', async () => {
    const { window } = await readyHost();
    const handler = window.webContents.windowOpenHandler!;
    fakeState.dialogResponses = [1]; // Cancel
    expect(handler({ url: 'https://example.com/a' })).toEqual({ action: 'deny' });
    await vi.waitFor(() => expect(callsOf('dialog.showMessageBox')).toHaveLength(1));
    expect(callsOf('shell.openExternal')).toEqual([]);

    fakeState.dialogResponses = [0]; // Open in browser
    expect(handler({ url: 'https://example.com/b' })).toEqual({ action: 'deny' });
    await vi.waitFor(() => expect(callsOf('shell.openExternal')).toEqual([['https://example.com/b']]));
    const [, options] = callsOf('dialog.showMessageBox')[1]!;
    expect(options).toMatchObject({ detail: 'https://example.com/b', cancelId: 1 });

    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'baton://session/x', 'app://baton/index.html', 'not a url']) {
      expect(handler({ url })).toEqual({ action: 'deny' });
    }
    await new Promise((r) => setTimeout(r, 10));
    expect(callsOf('dialog.showMessageBox')).toHaveLength(2);
  });

  it('the session denies every permission request and check', async () => {
    const { window } = await readyHost();
    for (const permission of ['notifications', 'media', 'geolocation', 'clipboard-read', 'openExternal']) {
      expect(await session.defaultSession.requestPermission(window.webContents, permission)).toBe(false);
      expect(session.defaultSession.permissionCheckHandler!(window.webContents, permission)).toBe(false);
    }
  });
});

describe('app-wide guard', () => {
  it('the host installs it before ready: a webContents Electron makes on its own is denied too', async () => {
    host();
    const stray = webContents.createForTest();
    expect(stray.tryNavigate('https://evil.example/')).toBe(true);
    expect(stray.windowOpenHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    const attach = fakeEvent();
    stray.emit('will-attach-webview', attach, {}, {});
    expect(attach.defaultPrevented).toBe(true);
  });
});

describe('IPC sender check', () => {
  it('serves the main frame of our window on app://baton and refuses any other frame or origin', async () => {
    const { window } = await readyHost();
    const ours = { sender: window.webContents, senderFrame: { url: 'app://baton/index.html', parent: null } };
    const info = (await ipcMain.invokeAs(ours, IPC_INVOKE, 'host:info', {})) as { ok: boolean; value?: { host: string } };
    expect(info).toMatchObject({ ok: true, value: { host: 'electron' } });

    const other = new BrowserWindow({}) as unknown as FakeBrowserWindow;
    other.close(); // a window that is not ours any more
    const refused = [
      { sender: window.webContents, senderFrame: { url: 'app://baton/index.html', parent: { url: 'app://baton/index.html' } } }, // a subframe
      { sender: window.webContents, senderFrame: { url: 'https://evil.example/', parent: null } }, // navigated away
      { sender: window.webContents, senderFrame: { url: 'app://batonx/index.html', parent: null } }, // lookalike origin
      { sender: window.webContents, senderFrame: null }, // frame already gone
      { sender: other.webContents, senderFrame: { url: 'app://baton/index.html', parent: null } }, // not one of our windows
    ];
    for (const event of refused) {
      expect(await ipcMain.invokeAs(event, IPC_INVOKE, 'host:info', {})).toMatchObject({ ok: false, error: { code: 'UNAUTHENTICATED' } });
    }
  });

  it('forwards host events to the window', async () => {
    const { window } = await readyHost();
    started[0]!.emitUiEvent('tasks:changed', { id: 't1', state: 'running' });
    expect(window.webContents.sent).toContainEqual({ channel: IPC_EVENT, args: ['tasks:changed', { id: 't1', state: 'running' }] });
  });
});

describe('app://baton', () => {
  it('serves the renderer with the CSP and refuses traversal, other hosts and missing files', async () => {
    await readyHost();
    const handle = protocol.handlers.get('app')!;
    const index = await handle(new Request('app://baton/index.html'));
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toBe(RENDERER_CSP);
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await index.text()).toContain('<title>Baton</title>');
    expect((await handle(new Request('app://baton/assets/app.js'))).status).toBe(200);
    for (const url of ['app://baton/../secret.txt', 'app://baton/%2e%2e/secret.txt', 'app://baton/..%2f..%2fsecret.txt', 'app://baton/assets/..%5c..%5csecret.txt', 'app://other/index.html', 'app://baton/missing.js', 'app://baton/%00']) {
      const response = await handle(new Request(url));
      expect(response.status, url).toBe(404);
      expect(await response.text(), url).not.toContain('outside the renderer');
    }
    expect(callsOf('protocol.registerSchemesAsPrivileged')[0]![0]).toEqual([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
  });
});

describe('shutdown', () => {
  it('will-quit waits for services.close() before the app quits', async () => {
    let release!: () => void;
    const closing = new Promise<void>((r) => (release = r));
    const order: string[] = [];
    await readyHost({
      startServices: async (dataDir) => {
        const services = await startHostServices({ dataDir, kind: 'electron', capabilities: DESKTOP_CAPABILITIES });
        started.push(services);
        return {
          ...services,
          close: async () => {
            order.push('close started');
            await closing;
            await services.close();
            order.push('close finished');
          },
        } as HostServices;
      },
    });
    let quitEvents = 0;
    app.on('quit', () => {
      quitEvents += 1;
      order.push('quit');
    });
    app.quit();
    expect(order).toEqual(['close started']);
    expect(quitEvents).toBe(0);
    expect(ipcMain.handlers.has(IPC_INVOKE)).toBe(false); // the contract is unbound at once
    app.quit(); // a second request while closing does not close twice
    release();
    await vi.waitFor(() => expect(quitEvents).toBe(1));
    expect(order).toEqual(['close started', 'close finished', 'quit']);
  });

  it('a failing close is reported and the app still quits', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await readyHost({
      startServices: async (dataDir) => {
        const services = await startHostServices({ dataDir, kind: 'electron', capabilities: DESKTOP_CAPABILITIES });
        started.push(services);
        return { ...services, close: async () => Promise.reject(new Error('disk gone')) } as HostServices;
      },
    });
    let quit = false;
    app.on('quit', () => (quit = true));
    app.quit();
    await vi.waitFor(() => expect(quit).toBe(true));
    expect(errors.mock.calls.flat().join(' ')).toContain('disk gone');
    errors.mockRestore();
  });

  it('closes the services with the "leave runs going" preference as it stands at quit', async () => {
    const closedWith: unknown[] = [];
    const { window } = await readyHost({
      startServices: async (dataDir) => {
        const services = await startHostServices({ dataDir, kind: 'electron', capabilities: DESKTOP_CAPABILITIES });
        started.push(services);
        return { ...services, close: async (options?: { leaveRunsOnClose?: boolean }) => void closedWith.push(options) } as HostServices;
      },
    });
    const ours = { sender: window.webContents, senderFrame: { url: 'app://baton/index.html', parent: null } };
    expect(await ipcMain.invokeAs(ours, IPC_INVOKE, 'prefs:set', { leaveRunsOnClose: true })).toMatchObject({ ok: true, value: { leaveRunsOnClose: true } });
    let quit = false;
    app.on('quit', () => (quit = true));
    app.quit();
    await vi.waitFor(() => expect(quit).toBe(true));
    expect(closedWith).toEqual([{ leaveRunsOnClose: true }]);
  });

  it('window-all-closed quits (through the same wait)', async () => {
    const { window } = await readyHost();
    let quit = false;
    app.on('quit', () => (quit = true));
    window.close();
    app.emit('window-all-closed');
    await vi.waitFor(() => expect(quit).toBe(true));
    expect(started).toHaveLength(1);
  });
});

describe('client-local preferences', () => {
  const ours = (window: FakeBrowserWindow) => ({ sender: window.webContents, senderFrame: { url: 'app://baton/index.html', parent: null } });

  it('prefs:get and prefs:set are answered by the desktop shell from electron-store, outside the data directory', async () => {
    const { window } = await readyHost();
    expect(await ipcMain.invokeAs(ours(window), IPC_INVOKE, 'prefs:get', {})).toMatchObject({ ok: true, value: { theme: 'system', approvalSound: false } });
    expect(await ipcMain.invokeAs(ours(window), IPC_INVOKE, 'prefs:set', { theme: 'dark', notifications: { minimumRisk: 'high' } })).toMatchObject({
      ok: true,
      value: { theme: 'dark', notifications: { approvals: true, minimumRisk: 'high' } },
    });
    expect(await ipcMain.invokeAs(ours(window), IPC_INVOKE, 'prefs:set', { sidebarWidth: 5 })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    const stored = JSON.parse(await readFile(join(root, 'user-data', 'preferences.json'), 'utf8'));
    expect(stored.theme).toBe('dark');
    const dataFiles = await readdir(join(root, 'data'), { recursive: true });
    expect(dataFiles.filter((f) => String(f).includes('preferences'))).toEqual([]);
    // The sender check comes first for preferences too.
    expect(await ipcMain.invokeAs({ sender: window.webContents, senderFrame: { url: 'https://evil.example/', parent: null } }, IPC_INVOKE, 'prefs:get', {})).toMatchObject({ ok: false, error: { code: 'UNAUTHENTICATED' } });
  });

  it('window bounds saved on close are restored (maximized too) on the next start', async () => {
    const first = await readyHost();
    first.window.bounds = { x: 40, y: 50, width: 1000, height: 700 };
    first.window.maximized = true;
    first.window.close();
    await started[0]!.close();
    resetFakeElectron();
    started = [];
    const second = await readyHost();
    expect(second.window.options).toMatchObject({ x: 40, y: 50, width: 1000, height: 700 });
    expect(callsOf('BrowserWindow.maximize')).toHaveLength(1);
  });
});

describe('another Baton host owns the endpoint', () => {
  async function otherHost(): Promise<HostServices> {
    // What `baton serve` runs: the same services on the same data directory.
    const other = await startHostServices({ dataDir: join(root, 'data'), kind: 'browser', capabilities: DESKTOP_CAPABILITIES });
    started.push(other);
    return other;
  }

  it('forwards the link to it for real, says so with the way forward, and quits when the person keeps it', async () => {
    await otherHost();
    const h = host({ realForward: true, argv: ['/opt/Baton/baton', URL_MARKER_FLAG, 'baton://session/s-absent'] });
    app.becomeReady();
    await h.started;
    const [[options]] = callsOf('dialog.showMessageBox') as [[{ message: string; detail: string; buttons: string[] }]];
    expect(options.message).toBe('Another Baton is already receiving handoffs');
    expect(options.detail).toContain('baton serve');
    expect(options.detail).toContain('could not open s-absent'); // the other host answered NOT_FOUND for it
    expect(options.detail).toContain(join(root, 'data'));
    expect(options.buttons).toEqual(['Quit', 'Try again']);
    expect(callsOf('app.quit')).toHaveLength(1);
    expect(BrowserWindow.getAllWindows()).toHaveLength(0);
  });

  it('a link for a session the other host holds is opened there (session.open over the real endpoint)', async () => {
    const other = await otherHost();
    const session = await other.store.createSession({ cwd: root, gitRoot: null, branch: null, title: 'held elsewhere', source: { tool: 'baton' }, holder: 'terminal' });
    const selectedThere: string[] = [];
    other.onUiEvent((event, payload) => {
      if (event === 'session:select') selectedThere.push((payload as { id: string }).id);
    });
    const h = host({ realForward: true, argv: ['/opt/Baton/baton', URL_MARKER_FLAG, `baton://session/${session.id}`] });
    app.becomeReady();
    await h.started;
    expect(selectedThere).toEqual([session.id]);
    const [[options]] = callsOf('dialog.showMessageBox') as [[{ detail: string }]];
    expect(options.detail).toContain(`opened there (${session.id})`);
  });

  it('Try again after the other host stopped: this app takes the endpoint and opens its window', async () => {
    const other = await otherHost();
    fakeState.dialogResponses = [1];
    fakeState.onMessageBox = () => other.close(); // the person pressed Ctrl+C in `baton serve`
    const h = host({ realForward: true });
    app.becomeReady();
    await h.started;
    expect(callsOf('dialog.showMessageBox')).toHaveLength(1);
    expect(callsOf('app.quit')).toHaveLength(0);
    expect(BrowserWindow.getAllWindows()).toHaveLength(1);
    expect(started).toHaveLength(2);
  });
});

describe('native integration', () => {
  it('installs the application menu with standard roles, without devtools in a packaged build', async () => {
    await readyHost();
    const [[menu]] = callsOf('Menu.setApplicationMenu') as [[{ template: { role?: string; submenu?: { role?: string }[] }[] }]];
    const roles = menu.template.map((item) => item.role ?? 'custom');
    expect(roles).toEqual(['fileMenu', 'editMenu', 'custom', 'windowMenu', 'help']);
    const view = menu.template[2]!.submenu!.map((item) => item.role);
    expect(view).not.toContain('toggleDevTools');
    expect(view).toContain('togglefullscreen');
  });

  it('sets the badge to the pending approvals at start and clears it on quit', async () => {
    await readyHost();
    expect(callsOf('app.setBadgeCount')).toEqual([[0]]);
    let quit = false;
    app.on('quit', () => (quit = true));
    app.quit();
    await vi.waitFor(() => expect(quit).toBe(true));
    expect(callsOf('app.setBadgeCount').at(-1)).toEqual([0]);
  });
});

describe('start-up failures', () => {
  it('another error shows the error box with the data directory and exits 1', async () => {
    const h = host({ startServices: async () => Promise.reject(new Error('EACCES: permission denied')) });
    app.becomeReady();
    await h.started;
    const [title, content] = callsOf('dialog.showErrorBox')[0] as [string, string];
    expect(title).toBe('Baton could not start');
    expect(content).toContain('EACCES');
    expect(content).toContain(join(root, 'data'));
    expect(callsOf('app.exit')).toEqual([[1]]);
  });
});

describe('passphrase store (issue 17)', () => {
  it('starts locked in the window; the passphrase sent over IPC opens it, Lock closes it, and it is never echoed', async () => {
    const { enablePassphraseEncryption } = await import('../core/store/at-rest/convert.js');
    const { startHostForStore } = await import('../core/host/lockable-host.js');
    const { requestPassphraseKey } = await import('../core/store/at-rest/key-request.js');
    const passphrase = 'desktop unlock passphrase 4417';
    const saved = { bus: process.env.DBUS_SESSION_BUS_ADDRESS, runtime: process.env.XDG_RUNTIME_DIR, home: process.env.HOME };
    process.env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${join(root, 'no-bus')}`;
    delete process.env.XDG_RUNTIME_DIR;
    process.env.HOME = join(root, 'home');
    const dataDir = join(root, 'data');
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const { keyId } = await enablePassphraseEncryption(dataDir, Buffer.from(passphrase));
    const hosts: { close(): Promise<void> }[] = [];
    try {
      const { window } = await readyHost({
        startServices: async (dir) => {
          const started = await startHostForStore({ dataDir: dir, kind: 'electron', capabilities: DESKTOP_CAPABILITIES });
          hosts.push(started);
          return started as HostServices;
        },
      });
      const ours = { sender: window.webContents, senderFrame: { url: 'app://baton/index.html', parent: null } };
      const invoke = (channel: string, payload: unknown) => ipcMain.invokeAs(ours, IPC_INVOKE, channel, payload);
      expect(await invoke('store:lock-state', {})).toEqual({ ok: true, value: { state: 'locked', dataDir } });
      expect(await invoke('sessions:list', {})).toMatchObject({ ok: false, error: { code: 'LOCKED' } });
      await expect(requestPassphraseKey(dataDir, keyId)).rejects.toMatchObject({ code: 'KEY_UNAVAILABLE' });

      const wrong = await invoke('store:unlock', { passphrase: 'a wrong guess here' });
      expect(wrong).toMatchObject({ ok: false, error: { code: 'KEY_UNAVAILABLE' } });
      expect(JSON.stringify(wrong)).not.toContain('a wrong guess here');
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect(await invoke('store:unlock', { passphrase })).toEqual({ ok: true, value: { state: 'unlocked', dataDir } });
      expect(await invoke('sessions:list', {})).toEqual({ ok: true, value: [] });
      expect((await requestPassphraseKey(dataDir, keyId)).keyId).toBe(keyId);
      expect(window.webContents.sent).toContainEqual({ channel: IPC_EVENT, args: ['store:lock-changed', { state: 'unlocked' }] });
      // Approval notifications follow the open store: the badge is set when it opens.
      expect(callsOf('app.setBadgeCount').length).toBeGreaterThan(0);

      expect(await invoke('store:lock', {})).toEqual({ ok: true, value: { state: 'locked', dataDir } });
      expect(await invoke('sessions:list', {})).toMatchObject({ ok: false, error: { code: 'LOCKED' } });
      await expect(requestPassphraseKey(dataDir, keyId)).rejects.toMatchObject({ code: 'KEY_UNAVAILABLE' });
      for (const sent of window.webContents.sent) expect(JSON.stringify(sent)).not.toContain(passphrase);
    } finally {
      for (const h of hosts) await h.close();
      for (const [name, value] of [['DBUS_SESSION_BUS_ADDRESS', saved.bus], ['XDG_RUNTIME_DIR', saved.runtime], ['HOME', saved.home]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
