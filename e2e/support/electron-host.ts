import { _electron as electron, type ElectronApplication, type Page } from '@playwright/test';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from './cli.js';

/** What the desktop window loads (src/main/app-protocol.ts APP_INDEX_URL). */
export const ELECTRON_APP_URL = 'app://baton/index.html';

/**
 * The Electron executable this project launches, found the way the `electron` package finds it
 * (ELECTRON_OVERRIDE_DIST_PATH first, else node_modules/electron/dist) but without its fallback
 * of downloading one; or the one-line reason it cannot run here.
 */
export function electronRuntime(env: NodeJS.ProcessEnv = process.env): { path: string } | { missing: string } {
  const pkg = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  const pathFile = join(pkg, 'path.txt');
  const name = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : process.platform === 'win32' ? 'electron.exe' : 'electron';
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  const path = override ? join(override, name) : join(pkg, 'dist', name);
  try {
    accessSync(path, constants.X_OK);
  } catch {
    return {
      missing: override
        ? `no Electron executable at ${path} (ELECTRON_OVERRIDE_DIST_PATH)`
        : 'the Electron runtime is not installed here (no internet to fetch it; set ELECTRON_OVERRIDE_DIST_PATH to a local one)',
    };
  }
  if (process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return { missing: 'no DISPLAY for the Electron window (run under xvfb-run)' };
  return { path };
}

export interface RunningElectronHost {
  app: ElectronApplication;
  window: Page;
  stop(): Promise<void>;
}

/**
 * Launches the built desktop app (out/main) on `home`, with extra env (a fake HOME, …); resolves
 * once its window loaded. `userDataDir` keeps the single-instance lock and the preferences of
 * each test apart from the person's own ~/.config/Baton.
 */
export async function startElectronHost(executablePath: string, home: string, userDataDir: string, env: NodeJS.ProcessEnv = {}): Promise<RunningElectronHost> {
  const app = await electron.launch({
    executablePath,
    args: [REPO_ROOT, `--user-data-dir=${userDataDir}`],
    cwd: REPO_ROOT,
    env: { ...(process.env as Record<string, string>), ...(env as Record<string, string>), BATON_HOME: home },
  });
  const window = await app.firstWindow();
  await window.waitForLoadState('domcontentloaded');
  // Idempotent: a test may stop the host itself (a restart) before the fixture's teardown.
  let stopped: Promise<void> | null = null;
  return { app, window, stop: () => (stopped ??= app.close()) };
}
