import { expect, test } from '../support/fixtures.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runBaton } from '../support/cli.js';
import { FIRST_MESSAGE_PHRASE, seedLargeSession } from '../support/large-session.js';
import { SCREENS } from '../support/screens.js';

/** Search as a person uses it: the real host's index, the real CLI, real Chromium. */
test.describe('search', () => {
  test('inside a 100,000-message session: a phrase of the first message is found, highlighted, and jumped to', async ({ page, home, launchHost }) => {
    test.setTimeout(120_000);
    const id = await seedLargeSession(home.path, 100_000);
    const host = await launchHost();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${host.url}#session=${id}`);
    await expect(page.locator('[data-testid="message"][data-seq="99998"]')).toBeInViewport();
    await page.getByTestId('session-search-input').fill('quokka calibrated');
    await expect(page.getByTestId('session-search-count')).toHaveText('1 of 1', { timeout: 30_000 });
    const first = page.locator('[data-testid="message"][data-seq="0"]');
    await expect(first).toBeInViewport();
    await expect(first).toHaveAttribute('data-hit', 'true');
    await expect(first).toContainText(FIRST_MESSAGE_PHRASE);
    // The terms are painted (CSS highlights): two ranges in the hit.
    expect(await page.evaluate(() => (CSS as unknown as { highlights: Map<string, { size: number }> }).highlights.get('baton-search')?.size ?? 0)).toBeGreaterThanOrEqual(2);
    await page.screenshot({ path: join(SCREENS, 'search-in-session.png') });

    // Many hits: next and previous walk them, wrapping around.
    await page.getByTestId('session-search-input').fill('worker-12.ts');
    await expect(page.getByTestId('session-search-count')).toHaveText(/^1 of [\d,]+$/, { timeout: 30_000 });
    await page.getByTestId('session-search-next').click();
    await expect(page.getByTestId('session-search-count')).toHaveText(/^2 of /);
    await page.getByTestId('session-search-prev').click();
    await page.getByTestId('session-search-prev').click();
    const last = await page.getByTestId('session-search-count').textContent();
    expect(last).toMatch(/^([\d,]+) of \1$/);
  });

  test('across sessions: a phrase said in one session only is found, and the hit opens that session at that message', async ({ page, home, work, launchHost }) => {
    const host = await launchHost();
    const sessions: Record<string, string> = {};
    for (const [title, said] of [
      ['Billing export', 'The CSV export drops the currency column.'],
      ['Login redirect', 'We keep the pangolin-shaped session cookie for 30 days.'],
      ['Flaky date picker', 'Pin TZ=UTC in the test setup.'],
    ] as const) {
      const file = join(work.path, `${title}.jsonl`);
      const messages = [{ role: 'user', content: `Look at ${title.toLowerCase()}` }, { role: 'assistant', content: said }];
      await writeFile(file, messages.map((m) => JSON.stringify(m)).join('\n') + '\n');
      const run = await runBaton(['handoff', '--cwd', work.path, '--title', title, '--messages', file, '--json'], { home: home.path });
      expect(run.code, run.stderr).toBe(0);
      sessions[title] = (JSON.parse(run.stdout) as { sessionId: string }).sessionId;
    }
    await page.goto(host.url);
    await page.getByTestId('open-search').click();
    await page.getByTestId('search-input').fill('pangolin cookie');
    const hits = page.getByTestId('search-hit');
    await expect(hits).toHaveCount(1);
    await expect(hits.first()).toHaveAttribute('data-session-id', sessions['Login redirect']!);
    await expect(hits.first()).toContainText('pangolin-shaped session cookie');
    await page.screenshot({ path: join(SCREENS, 'search-across-sessions.png') });
    await hits.first().click();
    await expect(page.getByTestId('session-title')).toHaveText('Login redirect');
    await expect(page.getByTestId('session-search-input')).toHaveValue('pangolin cookie');
    await expect(page.locator('[data-testid="message"][data-hit]')).toContainText('pangolin-shaped');
    // A phrase said nowhere.
    await page.getByTestId('open-search').click();
    await page.getByTestId('search-input').fill('armadillo');
    await expect(page.getByTestId('search-summary')).toHaveText('No session said that.');
  });
});
