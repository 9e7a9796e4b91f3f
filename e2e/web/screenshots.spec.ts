import { expect, test } from '../support/fixtures.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runBaton } from '../support/cli.js';
import { seedLargeSession } from '../support/large-session.js';
import { SCREENS } from '../support/screens.js';

const CONVERSATION = [
  { role: 'user', content: 'Why does the **date picker** test fail on CI only?' },
  { role: 'assistant', content: 'Let me run it with the CI time zone.', toolCalls: [{ id: 'c1', name: 'Bash', input: { command: 'TZ=America/Los_Angeles npm test -- date-picker' } }] },
  { role: 'tool', toolCallId: 'c1', content: 'FAIL src/date-picker.test.ts\n  ✕ shows the 1st of the month (12 ms)\n    Expected: "Dec 1"\n    Received: "Nov 30"', exitCode: 1 },
  {
    role: 'assistant',
    content:
      '## Root cause\n\nThe picker builds dates with `new Date(y, m, d)` (local time) and formats them in **UTC**, so west of Greenwich the 1st becomes the 30th.\n\n```ts\n// src/date-picker.ts\nexport function firstOfMonth(year: number, month: number): Date {\n  return new Date(Date.UTC(year, month, 1));\n}\n```\n\n| zone | before | after |\n|---|---|---|\n| UTC | Dec 1 | Dec 1 |\n| America/Los_Angeles | Nov 30 | Dec 1 |',
  },
];

/**
 * The screenshots, light and dark: a conversation (Markdown, highlighted code, a tool card),
 * the 100,000-message session, and search hits across sessions. Written to test-results/screens;
 * the copies in docs/screenshots/ were taken with this spec (see docs/screenshots/README.md).
 */
test('screenshots of the conversation, the 100,000-message session and search hits, light and dark', async ({ page, home, work, launchHost }) => {
  test.setTimeout(180_000);
  const large = await seedLargeSession(home.path, 100_000);
  const host = await launchHost();
  const file = join(work.path, 'conversation.jsonl');
  await writeFile(file, CONVERSATION.map((m) => JSON.stringify(m)).join('\n') + '\n');
  const run = await runBaton(['handoff', '--cwd', work.path, '--title', 'Date picker fails on CI', '--messages', file, '--json'], { home: home.path });
  expect(run.code, run.stderr).toBe(0);
  const { sessionId } = JSON.parse(run.stdout) as { sessionId: string };
  await page.setViewportSize({ width: 1280, height: 860 });

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    // A hash-only change does not reload the page: start each view from a fresh load.
    await page.goto('about:blank');
    await page.goto(`${host.url}#session=${sessionId}`);
    await expect(page.locator('pre > code[data-highlighted]').last()).toBeVisible();
    await page.getByTestId('tool-call').locator('summary').first().click();
    await page.screenshot({ path: join(SCREENS, `conversation-${scheme}.png`) });

    await page.goto('about:blank');
    await page.goto(`${host.url}#session=${large}`);
    await expect(page.getByTestId('message-count')).toContainText('100,000 messages', { timeout: 30_000 });
    await expect(page.locator('[data-testid="message"][data-seq^="99"]').first()).toBeVisible();
    // Markdown is loaded with the first message shown (lazily): the shot waits for it, and for the newest message.
    await expect(page.locator('[data-testid="message"] h2').first()).toBeVisible({ timeout: 30_000 });
    await page.locator('[data-scroll-root]').evaluate((root) => root.scrollTo({ top: root.scrollHeight }));
    await expect(page.locator('[data-testid="message"][data-seq="99998"]')).toBeInViewport({ timeout: 30_000 });
    await page.screenshot({ path: join(SCREENS, `session-100k-${scheme}.png`) });

    await page.getByTestId('open-search').click();
    await page.getByTestId('search-input').fill('root cause');
    await expect(page.getByTestId('search-hit').first()).toBeVisible({ timeout: 30_000 });
    await page.screenshot({ path: join(SCREENS, `search-hits-${scheme}.png`) });
  }
});
