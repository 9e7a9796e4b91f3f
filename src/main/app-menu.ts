import { Menu, shell, type MenuItemConstructorOptions } from 'electron';

/**
 * The application menu: Electron's standard roles, so the platform's own shortcuts work
 * (copy/paste in the message views, zoom, full screen, Cmd+Q/Ctrl+Q, window cycling). Reload and
 * developer tools stay out of packaged builds: a reload would drop in-progress UI state, and the
 * devtools are an inspection door the person never asked for.
 */
export function applicationMenuTemplate(platform: NodeJS.Platform, packaged: boolean, dataDir: string): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [];
  if (mac) template.push({ role: 'appMenu' });
  template.push({ role: 'fileMenu' }, { role: 'editMenu' });
  template.push({
    label: 'View',
    submenu: [
      ...(packaged ? [] : ([{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' }] as MenuItemConstructorOptions[])),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  });
  template.push({ role: 'windowMenu' });
  template.push({
    role: 'help',
    // Where sessions, logs and damaged-byte side files live: what a bug report needs.
    submenu: [{ label: 'Open Data Folder', click: () => void shell.openPath(dataDir) }],
  });
  return template;
}

export function installApplicationMenu(platform: NodeJS.Platform, packaged: boolean, dataDir: string): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(applicationMenuTemplate(platform, packaged, dataDir)));
}
