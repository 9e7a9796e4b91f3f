import { BrowserWindow, session, shell } from 'electron';
import { join } from 'node:path';

/**
 * The one window factory (VS Code's rule): every window is sandboxed and isolated, cannot navigate
 * away from the bundled renderer, cannot open new windows, and is granted no permissions.
 */
export function createSecureWindow(options: { preloadPath: string; url: string; bounds?: Electron.Rectangle }): BrowserWindow {
  const window = new BrowserWindow({
    ...(options.bounds ?? { width: 1280, height: 820 }),
    minWidth: 720,
    minHeight: 480,
    title: 'Baton',
    show: false,
    backgroundColor: '#111318',
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    },
  });
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  window.webContents.on('will-redirect', (event) => event.preventDefault());
  window.webContents.setWindowOpenHandler(({ url }) => {
    // Links in messages open in the person's browser, never inside Baton.
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(options.url);
  return window;
}

/** Applied once to the default session: deny every permission request (camera, notifications prompt …). */
export function lockDownSession(): void {
  session.defaultSession.setPermissionRequestHandler((_webContents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
}

export function rendererPaths(mainDir: string) {
  return { preloadPath: join(mainDir, '../preload/index.cjs'), rendererDir: join(mainDir, '../renderer') };
}
