import { defineConfig } from '@playwright/test';
import type { BatonOptions } from './e2e/support/fixtures.js';

// The hosts and CLIs the tests start never reach the person's own keychain (issue 17): a session bus
// that does not exist, so their stores are unencrypted. Runner and workers both load this file.
process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/baton-tests-have-no-session-bus';

/** Debian's chromium (Playwright's own browsers cannot be downloaded here). */
export const CHROMIUM_PATH = process.env.BATON_CHROMIUM ?? '/usr/bin/chromium';

const CHROMIUM_USE = {
  browserName: 'chromium' as const,
  launchOptions: {
    // Always this path: a missing chromium fails the web tests (e2e/support/fixtures.ts), never a silent fallback.
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  },
};

export default defineConfig<BatonOptions>({
  testDir: 'e2e',
  outputDir: 'test-results/artifacts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'web',
      testDir: 'e2e/web',
      use: { ...CHROMIUM_USE, hostKind: 'web' },
    },
    {
      // The same scenarios (e2e/web) plus the desktop-only ones (e2e/electron), against the desktop
      // app (e2e/support/fixtures.ts). Runs where an Electron runtime exists (ELECTRON_OVERRIDE_DIST_PATH
      // names a local one); elsewhere each test skips with its one-line reason.
      name: 'electron',
      testDir: 'e2e',
      testMatch: ['web/**/*.spec.ts', 'electron/**/*.spec.ts'],
      // Copy to clipboard needs a clipboard permission, which the desktop app denies by design.
      // The ssh spec drives the browser host itself (ssh -L to its port, issue 22). The conversation's
      // pages are read and held on the browser host's WebSocket; the desktop app uses IPC instead.
      testIgnore: ['web/continue-in-terminal.spec.ts', 'web/ssh-remote.spec.ts', 'web/conversation-pages.spec.ts'],
      // Chromium settings only so the unused base page fixture can start where the runtime exists.
      use: { ...CHROMIUM_USE, hostKind: 'electron' },
    },
  ],
});
