import { app, type WebContents } from 'electron';

/**
 * App-wide guard (VS Code's rule): every webContents Electron creates — our window, a devtools
 * page, anything a bug or an exploit manages to open — is denied navigation, new windows, webview
 * attachment and every permission request. The window factory adds its own, narrower rules on top.
 */
export function guardAllWebContents(): void {
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents));
}

export function guardWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-frame-navigate', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  contents.session.setPermissionCheckHandler(() => false);
}
