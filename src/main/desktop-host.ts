import { app, BrowserWindow, dialog } from 'electron';
import type { HostServices } from '../core/host/host-services.js';
import type { LockableHost } from '../core/host/lockable-host.js';
import { DeepLinkQueue, URL_MARKER_FLAG } from './deep-links.js';
import { createSecureWindow, lockDownSession, rendererPaths } from './secure-window.js';
import { bindUiContract } from './ipc-bridge.js';
import { APP_INDEX_URL, APP_ORIGIN, registerAppScheme, serveRenderer } from './app-protocol.js';
import { guardAllWebContents } from './web-contents-guard.js';
import { openPreferences, type PreferencesStore } from './preferences-store.js';
import { rememberWindowBounds } from './window-bounds.js';
import { bindApprovalNotifications } from './approval-notifications.js';
import { installApplicationMenu } from './app-menu.js';
import type { ForwardResult } from './forward.js';
import { showOtherHostNotice } from './other-host-notice.js';

/** What the host needs from the outside world; index.ts passes the real ones, tests their own. */
export interface DesktopHostDeps {
  argv: readonly string[];
  execPath: string;
  /** True when started as `electron .` (process.defaultApp): the launcher must pass the app path too. */
  defaultApp: boolean;
  /** The folder of the built main bundle (out/main): the preload and renderer are found beside it. */
  mainDir: string;
  dataDir: () => string;
  /** Where client-local preferences live (Electron's userData): never inside the data directory. */
  preferencesDir: () => string;
  /** A passphrase store's host starts locked (a LockableHost: the window shows the unlock screen); any other opens at once. */
  startServices: (dataDir: string) => Promise<HostServices | LockableHost>;
  /** Hands this instance's links to the host that already owns the endpoint. */
  forward: (dataDir: string, links: DeepLinkQueue) => Promise<ForwardResult>;
  platform: NodeJS.Platform;
  /** app.isPackaged: packaged builds get no reload / devtools menu items. */
  packaged: boolean;
}

export interface DesktopHost {
  readonly links: DeepLinkQueue;
  /** Settles once start-up has finished (or given way to another instance). */
  readonly started: Promise<void>;
}

/**
 * Baton's Electron host, in the order Electron needs it: the app:// scheme and open-url before
 * ready, the single-instance lock, then services, the one window and the UI contract.
 */
export function runDesktopHost(deps: DesktopHostDeps): DesktopHost {
  const links = new DeepLinkQueue();
  registerAppScheme();
  // Every webContents, whoever made it, is denied navigation, new windows, webviews and permissions.
  guardAllWebContents();

  // 1. macOS delivers baton:// links through open-url, possibly before ready: attach synchronously.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    links.acceptUrl(url);
  });

  // 2. One instance: a second launch (Windows/Linux deep link) hands its argv to the first and quits.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return { links, started: Promise.resolve() };
  }
  app.on('second-instance', (_event, argv) => {
    links.acceptArgv(argv);
    const [window] = BrowserWindow.getAllWindows();
    if (window) {
      if (window.isMinimized()) window.restore();
      window.focus();
    }
  });
  links.acceptArgv(deps.argv);
  // 3. Register baton:// with the marker flag, so argv links are only accepted from the launcher.
  const args = deps.defaultApp ? [deps.argv[1] ?? '', URL_MARKER_FLAG] : [URL_MARKER_FLAG];
  app.setAsDefaultProtocolClient('baton', deps.execPath, args);
  const started = app.whenReady().then(() => start(deps, links));
  return { links, started };
}

async function start(deps: DesktopHostDeps, links: DeepLinkQueue): Promise<void> {
  lockDownSession();
  const dataDir = deps.dataDir();
  installApplicationMenu(deps.platform, deps.packaged, dataDir);
  let services: HostServices | LockableHost;
  for (;;) {
    try {
      services = await deps.startServices(dataDir);
      break;
    } catch (error) {
      if ((error as { code?: string }).code === 'ALREADY_RUNNING') {
        // `baton serve` (or another build) already receives handoffs: pass our links to it, say so,
        // and let the person either leave it there or stop it and take over.
        const forwarded = await deps.forward(dataDir, links);
        if ((await showOtherHostNotice(dataDir, forwarded)) === 'retry') continue;
        app.quit();
        return;
      }
      dialog.showErrorBox('Baton could not start', `${(error as Error).message}\nData directory: ${dataDir}`);
      app.exit(1);
      return;
    }
  }

  // 4. One secure window; the UI contract over IPC; links acted on once the window has loaded.
  const paths = rendererPaths(deps.mainDir);
  serveRenderer(paths.rendererDir);
  const prefs: PreferencesStore = openPreferences(deps.preferencesDir());
  const saved = prefs.get().windowBounds;
  const window = createSecureWindow({ preloadPath: paths.preloadPath, url: APP_INDEX_URL, bounds: saved });
  if (saved?.maximized) window.maximize();
  rememberWindowBounds(window, prefs);
  const unbind = bindUiContract(services, () => BrowserWindow.getAllWindows(), APP_ORIGIN, {
    'prefs:get': () => ({ ok: true, value: prefs.get() }),
    'prefs:set': (payload) => prefs.set(payload),
  });
  window.webContents.once('did-finish-load', () =>
    links.onReady((link) => {
      if (link.kind === 'session' || link.kind === 'handoff') services.emitUiEvent('session:select', { id: link.sessionId });
      else if (link.kind === 'pair') services.emitUiEvent('devices:pair-link', { code: link.code });
    }),
  );

  const unbindNotifications = whileOpen(services, (open) => bindApprovalNotifications({
    approvals: open.approvals,
    preferences: () => prefs.get(),
    focusRequest: (request) => {
      const [target] = BrowserWindow.getAllWindows();
      if (!target) return;
      if (target.isMinimized()) target.restore();
      target.show();
      target.focus();
      services.emitUiEvent('session:select', { id: request.sessionId });
    },
  }));

  app.on('window-all-closed', () => app.quit());
  holdQuitUntilClosed(async () => {
    unbindNotifications();
    unbind();
    // The person's "leave runs going" preference, as it stands when the app closes.
    await services.close({ leaveRunsOnClose: prefs.get().leaveRunsOnClose });
  });
}

/** Runs `attach` on the open services: now for a plain host, at each unlock (undone at each Lock) for a passphrase store's. */
function whileOpen(services: HostServices | LockableHost, attach: (open: HostServices) => () => void): () => void {
  if (!('whileOpen' in services)) return attach(services);
  let detach: (() => void) | undefined;
  services.whileOpen((open) => {
    detach = attach(open);
    return () => {
      detach?.();
      detach = undefined;
    };
  });
  return () => detach?.();
}

/**
 * `will-quit` does not wait for promises: the first one is prevented, the services are closed
 * (the store flushed, pending approvals recorded as host-restart, the endpoint released), and
 * only then does the app quit for real.
 */
function holdQuitUntilClosed(close: () => Promise<void>): void {
  let state: 'open' | 'closing' | 'closed' = 'open';
  app.on('will-quit', (event) => {
    if (state === 'closed') return;
    event.preventDefault();
    if (state === 'closing') return;
    state = 'closing';
    void close()
      .catch((error: unknown) => console.error(`[baton] closing the host services failed: ${(error as Error).message}`))
      .finally(() => {
        state = 'closed';
        app.quit();
      });
  });
}
