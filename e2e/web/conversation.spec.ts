import { expect, test } from '../support/fixtures.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runBaton } from '../support/cli.js';
import { SCREENS } from '../support/screens.js';
import { FIRST_MESSAGE_PHRASE, seedLargeSession } from '../support/large-session.js';
import { SessionsPage } from '../pages/sessions-page.js';
import { afterTwoFrames, MAX_WHEELS, oldestRendered } from '../support/conversation-scroll.js';


const ROOT_CAUSE = [
  '## Root cause',
  '',
  'The date picker read the **local** zone; the test ran in `UTC`.',
  '',
  '| zone | result |',
  '|---|---|',
  '| UTC | pass |',
  '| Europe/Paris | fail |',
  '',
  '```ts',
  'export function pinZone(zone: string): void {',
  '  process.env.TZ = zone;',
  '}',
  '```',
].join('\n');

/** A session as people read it: Markdown, highlighted code, copy buttons, tool cards; real CLI, host and Chromium. */
test.describe('the conversation', () => {
  test('renders Markdown (h2, table, highlighted pre > code), copies a code block, and shows one card per tool call with its result', async ({ page, home, work, launchHost, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const host = await launchHost();
    const file = join(work.path, 'conversation.jsonl');
    const messages = [
      { role: 'user', content: 'Why does the date picker test fail?' },
      { role: 'assistant', content: 'Running the suite.', toolCalls: [{ id: 'c1', name: 'Bash', input: { command: 'npm test -- date-picker' } }] },
      { role: 'tool', toolCallId: 'c1', content: 'FAIL src/date-picker.test.ts\n  expected 09:00, got 10:00', exitCode: 1 },
      { role: 'assistant', content: ROOT_CAUSE },
    ];
    await writeFile(file, messages.map((m) => JSON.stringify(m)).join('\n') + '\n');
    const run = await runBaton(['handoff', '--cwd', work.path, '--title', 'Date picker zone', '--messages', file, '--json'], { home: home.path });
    expect(run.code, run.stderr).toBe(0);
    const { sessionId } = JSON.parse(run.stdout) as { sessionId: string };

    await page.goto(host.url);
    const sessions = new SessionsPage(page);
    await sessions.open(sessionId);
    // The tool result is folded into the call's card, never a message of its own.
    await expect(sessions.messages()).toHaveCount(3);
    await expect(page.locator('[data-testid="message"][data-role="tool"]')).toHaveCount(0);

    const answer = sessions.messages().last();
    await expect(answer.locator('h2')).toHaveText('Root cause');
    await expect(answer.locator('strong')).toHaveText('local');
    await expect(answer.locator('table td')).toHaveCount(4);
    const code = answer.locator('pre > code');
    await expect(code).toHaveAttribute('data-highlighted', 'true');
    expect(await code.evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/mono/i);
    const keyword = code.locator('span', { hasText: /^export$/ });
    expect(await keyword.evaluate((el) => getComputedStyle(el).color)).not.toBe(await code.evaluate((el) => getComputedStyle(el).color));

    await answer.getByRole('button', { name: 'Copy code' }).click();
    await expect(answer.getByRole('button', { name: 'Copy code' })).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('export function pinZone(zone: string): void {\n  process.env.TZ = zone;\n}');
    await sessions.messages().first().getByRole('button', { name: /Copy user message/ }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Why does the date picker test fail?');

    const card = page.getByTestId('tool-call');
    await expect(card).toHaveCount(1);
    await expect(card.getByTestId('tool-output')).toBeHidden();
    await card.locator('summary').click();
    await expect(card.getByTestId('tool-output')).toContainText('expected 09:00, got 10:00');
    await expect(card.getByTestId('tool-input')).toContainText('npm test -- date-picker');
    await expect(card.locator('summary')).toContainText('exit 1');
    await page.screenshot({ path: join(SCREENS, 'conversation-light.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(SCREENS, 'conversation-dark.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
    await card.locator('summary').click();
    await expect(card.getByTestId('tool-output')).toBeHidden();
  });

  test('a 100,000-message session opens at the newest with few DOM nodes, loads older pages, and jumps to the first message', async ({ page, home, launchHost }) => {
    test.setTimeout(120_000);
    const id = await seedLargeSession(home.path, 100_000);
    const host = await launchHost();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${host.url}#session=${id}`);
    await expect(page.getByTestId('message-count')).toHaveText('· 100,000 messages');
    await expect(page.locator('[data-testid="message"][data-seq="99998"]')).toBeInViewport();
    expect(await page.evaluate(() => document.getElementsByTagName('*').length)).toBeLessThan(3_000);
    await page.screenshot({ path: join(SCREENS, 'session-100k.png') });

    // A tool card opened at the bottom opens downward: its summary stays where it was clicked.
    const card = page.getByTestId('tool-call').last();
    const summaryTop = async () => (await card.locator('summary').boundingBox())!.y;
    const before = await summaryTop();
    await card.locator('summary').click();
    await expect(card.getByTestId('tool-output')).toBeVisible();
    await afterTwoFrames(page);
    expect(Math.abs((await summaryTop()) - before)).toBeLessThanOrEqual(2);

    // Scrolling up loads older pages from the host, and their messages come into view.
    await page.mouse.move(800, 500);
    for (let i = 0; i < MAX_WHEELS && (await oldestRendered(page)) >= 99_800; i++) await page.mouse.wheel(0, -600);
    expect(await oldestRendered(page)).toBeLessThan(99_800);

    await page.getByTestId('jump-first').click();
    const first = page.locator('[data-testid="message"][data-seq="0"]');
    await expect(first).toBeInViewport();
    await expect(first).toContainText(FIRST_MESSAGE_PHRASE);
    expect(await page.evaluate(() => document.getElementsByTagName('*').length)).toBeLessThan(3_000);
    await page.getByTestId('jump-newest').click();
    await expect(page.locator('[data-testid="message"][data-seq="99998"]')).toBeInViewport();
  });
});
