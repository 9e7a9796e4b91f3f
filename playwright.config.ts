import { defineConfig } from '@playwright/test';

/** Debian's chromium (Playwright's own browsers cannot be downloaded here). */
export const CHROMIUM_PATH = process.env.BATON_CHROMIUM ?? '/usr/bin/chromium';

export default defineConfig({
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
      use: {
        browserName: 'chromium',
        launchOptions: {
          // Always this path: a missing chromium fails the web tests (e2e/support/fixtures.ts), never a silent fallback.
          executablePath: CHROMIUM_PATH,
          args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
        },
      },
    },
    { name: 'electron', testDir: 'e2e/electron' },
  ],
});
