import { test as base, type Page } from '@playwright/test';
import { join } from 'node:path';
import { makeTempDir } from './cli.js';
import { startBrowserHost, type RunningHost } from './browser-host.js';
import { chromiumMissingReason } from './chromium.js';
import { ELECTRON_APP_URL, electronRuntime, startElectronHost, type RunningElectronHost } from './electron-host.js';

type TempDir = Awaited<ReturnType<typeof makeTempDir>>;

/** Which host the scenarios drive: the `web` project runs `baton serve` + Chromium, the `electron` project the desktop app. */
export type HostKind = 'web' | 'electron';

export interface BatonOptions {
  hostKind: HostKind;
}

export interface BatonFixtures {
  /** A fresh BATON_HOME for this test. */
  home: TempDir;
  /** A fresh directory for working trees, conversations and fake user homes. */
  work: TempDir;
  /**
   * Starts the host on `home` (optionally with extra env, e.g. a fake HOME); stopped after the test.
   * Web: `baton serve`, and `page.goto(host.url)` opens it in Chromium. Electron: the desktop app,
   * whose window becomes `page` (`page.goto(host.url)` reloads it).
   */
  launchHost: (env?: NodeJS.ProcessEnv) => Promise<RunningHost>;
}

/** The Electron window of the host launched last; `page` forwards to it in the electron project. */
interface ElectronSlot {
  current: RunningElectronHost | null;
}

/**
 * Every spec's setup in one place, for either host: fail at once (with the reason) where Debian's
 * chromium is missing, skip with one line where no Electron runtime is installed (the only
 * allowed e2e skip, scripts/summarize.js), fresh temp dirs per test, and hosts always stopped.
 */
export const test = base.extend<BatonOptions & BatonFixtures & { hostPresent: void; electronSlot: ElectronSlot }>({
  hostKind: ['web', { option: true }],
  hostPresent: [
    async ({ hostKind }, use, testInfo) => {
      if (hostKind === 'electron') {
        const runtime = electronRuntime();
        testInfo.skip('missing' in runtime, `skipped: ${'missing' in runtime ? runtime.missing : ''}`);
      } else {
        // Not a skip: a web suite that cannot launch its browser has tested nothing (issue 12).
        const missing = chromiumMissingReason();
        if (missing !== null) throw new Error(missing);
      }
      await use();
    },
    { auto: true },
  ],
  home: async ({}, use) => {
    const dir = await makeTempDir('baton-e2e-home-');
    await use(dir);
    await dir.remove();
  },
  work: async ({}, use) => {
    const dir = await makeTempDir('baton-e2e-work-');
    await use(dir);
    await dir.remove();
  },
  electronSlot: async ({}, use) => {
    await use({ current: null });
  },
  launchHost: async ({ home, work, hostKind, electronSlot }, use, testInfo) => {
    const stops: (() => Promise<void>)[] = [];
    const outputs: (() => string)[] = [];
    await use(async (env) => {
      if (hostKind === 'electron') {
        const runtime = electronRuntime();
        if ('missing' in runtime) throw new Error(runtime.missing);
        const host = await startElectronHost(runtime.path, home.path, join(work.path, '.electron-user-data'), env);
        electronSlot.current = host;
        stops.push(host.stop);
        return { url: ELECTRON_APP_URL, port: 0, stop: host.stop };
      }
      const host = await startBrowserHost(home.path, env);
      stops.push(host.stop);
      if (host.output) outputs.push(host.output);
      return host;
    });
    // A failed test carries what each host printed, and how it ended if it died under the test.
    if (testInfo.status !== testInfo.expectedStatus) {
      for (const [i, output] of outputs.entries()) await testInfo.attach(`baton serve ${i + 1}`, { body: output(), contentType: 'text/plain' });
    }
    for (const stop of stops) await stop();
  },
  page: async ({ page, hostKind, electronSlot }, use) => {
    if (hostKind === 'web') return use(page);
    // The window exists only once the test launched the host: forward every call to it then.
    const window = (): Page => {
      if (!electronSlot.current) throw new Error('launch the host (launchHost) before using the page');
      return electronSlot.current.window;
    };
    await use(
      new Proxy({} as Page, {
        get: (_target, prop) => {
          const value = Reflect.get(window(), prop) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(window()) : value;
        },
      }),
    );
  },
});

export { expect } from '@playwright/test';
