// Baton's Electron host: a table of contents. The host itself is src/main/desktop-host.ts
// (tested through a fake electron module); everything else testable lives in src/core.
import { app } from 'electron';
import { resolveDataDir } from '../core/paths.js';
import { startHostForStore } from '../core/host/lockable-host.js';
import { DESKTOP_CAPABILITIES } from '../core/host/capabilities.js';
import { forwardToRunningHost } from './forward.js';
import { runDesktopHost } from './desktop-host.js';

runDesktopHost({
  argv: process.argv,
  execPath: process.execPath,
  defaultApp: process.defaultApp === true,
  mainDir: import.meta.dirname,
  dataDir: () => resolveDataDir(),
  preferencesDir: () => app.getPath('userData'),
  startServices: (dataDir) => startHostForStore({ dataDir, kind: 'electron', capabilities: DESKTOP_CAPABILITIES }),
  forward: forwardToRunningHost,
  platform: process.platform,
  packaged: app.isPackaged,
});
