// Baton's Electron host: a table of contents. Everything testable lives in src/core.
import { app, BrowserWindow, dialog } from 'electron';
import { resolveDataDir } from '../core/paths.js';
import { startHostServices, type HostServices } from '../core/host/host-services.js';
import { DESKTOP_CAPABILITIES } from '../core/host/capabilities.js';
import { DeepLinkQueue, URL_MARKER_FLAG } from './deep-links.js';
import { createSecureWindow, lockDownSession, rendererPaths } from './secure-window.js';
import { bindUiContract } from './ipc-bridge.js';
import { forwardToRunningHost } from './forward.js';
import { APP_INDEX_URL, APP_ORIGIN, registerAppScheme, serveRenderer } from './app-protocol.js';

const links = new DeepLinkQueue();
registerAppScheme();

// 1. macOS delivers baton:// links through open-url, possibly before ready: attach synchronously.
app.on('open-url', (event, url) => {
  event.preventDefault();
  links.acceptUrl(url);
});

// 2. One instance: a second launch (Windows/Linux deep link) hands its argv to the first and quits.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', (_event, argv) => {
    links.acceptArgv(argv);
    const [window] = BrowserWindow.getAllWindows();
    if (window) {
      if (window.isMinimized()) window.restore();
      window.focus();
    }
  });
  links.acceptArgv(process.argv);
  // 3. Register baton:// with the marker flag, so argv links are only accepted from the launcher.
  const args = process.defaultApp ? [process.argv[1] ?? '', URL_MARKER_FLAG] : [URL_MARKER_FLAG];
  app.setAsDefaultProtocolClient('baton', process.execPath, args);
  void app.whenReady().then(start);
}

async function start(): Promise<void> {
  lockDownSession();
  const dataDir = resolveDataDir();
  let services: HostServices;
  try {
    services = await startHostServices({ dataDir, kind: 'electron', capabilities: DESKTOP_CAPABILITIES });
  } catch (error) {
    if ((error as { code?: string }).code === 'ALREADY_RUNNING') {
      // `baton serve` (or another build) already receives handoffs: pass our links to it and leave.
      await forwardToRunningHost(dataDir, links);
      app.quit();
      return;
    }
    dialog.showErrorBox('Baton could not start', `${(error as Error).message}\nData directory: ${dataDir}`);
    app.exit(1);
    return;
  }

  // 4. One secure window; the UI contract over IPC; links acted on once the window has loaded.
  const paths = rendererPaths(import.meta.dirname);
  serveRenderer(paths.rendererDir);
  const window = createSecureWindow({ preloadPath: paths.preloadPath, url: APP_INDEX_URL });
  const unbind = bindUiContract(services, () => BrowserWindow.getAllWindows(), APP_ORIGIN);
  window.webContents.once('did-finish-load', () =>
    links.onReady((link) => {
      if (link.kind === 'session' || link.kind === 'handoff') services.emitUiEvent('session:select', { id: link.sessionId });
      else if (link.kind === 'pair') services.emitUiEvent('devices:pair-link', { code: link.code });
    }),
  );

  app.on('window-all-closed', () => app.quit());
  app.on('will-quit', () => {
    unbind();
    void services.close();
  });
}
