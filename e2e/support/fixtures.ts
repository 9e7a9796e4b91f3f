import { test as base } from '@playwright/test';
import { makeTempDir } from './cli.js';
import { startBrowserHost, type RunningHost } from './browser-host.js';
import { chromiumMissingReason } from './chromium.js';

type TempDir = Awaited<ReturnType<typeof makeTempDir>>;

export interface BatonFixtures {
  /** A fresh BATON_HOME for this test. */
  home: TempDir;
  /** A fresh directory for working trees, conversations and fake user homes. */
  work: TempDir;
  /** Starts `baton serve` on `home` (optionally with extra env, e.g. a fake HOME); stopped after the test. */
  launchHost: (env?: NodeJS.ProcessEnv) => Promise<RunningHost>;
}

/**
 * Every web spec's setup in one place: fail at once (with the reason) where Debian's chromium is missing,
 * fresh temp dirs per test, and hosts that are always stopped.
 */
export const test = base.extend<BatonFixtures & { chromiumPresent: void }>({
  chromiumPresent: [
    async ({}, use) => {
      // Not a skip: a web suite that cannot launch its browser has tested nothing (issue 12).
      const missing = chromiumMissingReason();
      if (missing !== null) throw new Error(missing);
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
  launchHost: async ({ home }, use) => {
    const hosts: RunningHost[] = [];
    await use(async (env) => {
      const host = await startBrowserHost(home.path, env);
      hosts.push(host);
      return host;
    });
    for (const host of hosts) await host.stop();
  },
});

export { expect } from '@playwright/test';
