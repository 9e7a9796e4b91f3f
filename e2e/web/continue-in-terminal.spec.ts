import { expect, test } from '../support/fixtures.js';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { runBaton, writeConversation } from '../support/cli.js';
import { SessionsPage } from '../pages/sessions-page.js';
import { SessionViewPage } from '../pages/session-view-page.js';

test.describe('Continue in terminal', () => {
  test('a Baton session: the popover shows `baton resume <id>` in its directory, and Copy puts exactly that line on the clipboard', async ({ page, context, home, work, launchHost }) => {
    const cwd = await realpath(work.path);
    const messages = await writeConversation(cwd, 'session.jsonl', [{ role: 'user', content: 'Continue this in my terminal later' }]);
    const host = await launchHost();
    const run = await runBaton(['handoff', '--cwd', cwd, '--title', 'Back to the terminal', '--messages', messages, '--json'], { home: home.path });
    expect(run.code, run.stderr).toBe(0);
    const { sessionId } = JSON.parse(run.stdout) as { sessionId: string };

    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(host.url).origin });
    await page.goto(host.url);
    await new SessionsPage(page).open(sessionId);
    const view = new SessionViewPage(page);
    await view.continueInTerminal().click();
    await expect(view.terminalPopover()).toBeVisible();
    const line = view.terminalShellLine();
    await expect(line).toContainText(`baton resume ${sessionId}`);
    await expect(line).toContainText(cwd);
    await expect(page.getByTestId('terminal-tool')).toHaveText('Baton');
    await expect(page.getByTestId('terminal-cwd-gone')).toHaveCount(0);
    await page.screenshot({ path: join('test-results', 'screens', 'continue-in-terminal.png') });

    await page.getByTestId('terminal-copy').click();
    const status = page.getByTestId('terminal-copy-status');
    // 127.0.0.1 over http is a secure context in Chromium, so the clipboard answers; where it does
    // not, the line must be selected instead. Both are accepted, each checked for what it promises.
    await expect(status).toContainText(/Copied to the clipboard|press Ctrl\+C/);
    const shown = (await line.textContent()) ?? '';
    if ((await status.textContent())?.includes('Copied')) {
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
    } else {
      expect(await page.evaluate(() => window.getSelection()?.toString())).toBe(shown);
    }

    await page.keyboard.press('Escape');
    await expect(view.terminalPopover()).toHaveCount(0);
    await expect(view.continueInTerminal()).toBeFocused();
  });
});
