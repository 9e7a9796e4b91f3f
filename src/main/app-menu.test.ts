import { describe, expect, it, vi } from 'vitest';
import { callsOf, resetFakeElectron } from './test-support/fake-electron.js';

vi.mock('electron', () => import('./test-support/fake-electron.js'));

const { applicationMenuTemplate } = await import('./app-menu.js');

describe('application menu', () => {
  it('macOS gets the app menu first; every platform gets file, edit, view, window and help roles', () => {
    expect(applicationMenuTemplate('darwin', true, '/d').map((i) => i.role ?? i.label)).toEqual(['appMenu', 'fileMenu', 'editMenu', 'View', 'windowMenu', 'help']);
    expect(applicationMenuTemplate('linux', true, '/d').map((i) => i.role ?? i.label)).toEqual(['fileMenu', 'editMenu', 'View', 'windowMenu', 'help']);
  });

  it('reload and devtools only in development builds', () => {
    const roles = (packaged: boolean) => (applicationMenuTemplate('linux', packaged, '/d')[2]!.submenu as { role?: string }[]).map((i) => i.role).filter(Boolean);
    expect(roles(true)).toEqual(['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']);
    expect(roles(false)).toEqual(['reload', 'forceReload', 'toggleDevTools', 'resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']);
  });

  it('Help opens the data folder', () => {
    resetFakeElectron();
    const help = applicationMenuTemplate('linux', true, '/d').at(-1)!.submenu as { click: () => void }[];
    help[0]!.click();
    expect(callsOf('shell.openPath')).toEqual([['/d']]);
  });
});
