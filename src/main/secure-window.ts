import { BrowserWindow, dialog, session, shell } from 'electron';
import { join } from 'node:path';
import { WINDOW_LIMITS } from '../shared/preferences.js';

/**
 * The one window factory (VS Code's rule): every window is sandboxed and isolated, cannot navigate
 * away from the bundled renderer, cannot open new windows, and is granted no permissions.
 */
export function createSecureWindow(options: { preloadPath: string; url: string; bounds?: Electron.Rectangle | null }): BrowserWindow {
  const window = new BrowserWindow({
    ...(options.bounds ?? { width: 1280, height: 820 }),
    minWidth: WINDOW_LIMITS.minWidth,
    minHeight: WINDOW_LIMITS.minHeight,
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
    // Links in messages open in the person's browser, never inside Baton, and only once they said so.
    if (isExternalWebUrl(url)) void confirmOpenExternal(window, url);
    return { action: 'deny' };
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(options.url);
  return window;
}

/** Only http(s) leaves Baton; file:, javascript:, custom schemes never reach the OS. */
export function isExternalWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** A link in an agent's message can say anything: the person sees the full address and decides. */
export async function confirmOpenExternal(window: BrowserWindow, url: string): Promise<boolean> {
  const { response } = await dialog.showMessageBox(window, {
    type: 'question',
    message: 'Open this link in your browser?',
    detail: url,
    buttons: ['Open in browser', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
  });
  if (response !== 0) return false;
  await shell.openExternal(url);
  return true;
}

/** Applied once to the default session: deny every permission request (camera, notifications prompt …). */
export function lockDownSession(): void {
  session.defaultSession.setPermissionRequestHandler((_webContents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
}

export function rendererPaths(mainDir: string) {
  return { preloadPath: join(mainDir, '../preload/index.cjs'), rendererDir: join(mainDir, '../renderer') };
}
