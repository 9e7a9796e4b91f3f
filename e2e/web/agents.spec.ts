import { expect, test } from '../support/fixtures.js';
import { mkdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { writeClaudeSession, writeCodexSession } from '../support/agent-logs.js';
import { CandidatesPage } from '../pages/candidates-page.js';
import { SessionsPage } from '../pages/sessions-page.js';

const CLAUDE_ID = '7f3c2a10-4b5d-4e6f-8a9b-0c1d2e3f4a5b';
const CLAUDE_ID_2 = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const CODEX_ID = '019a7b2c-1d3e-7f40-8a51-b6c7d8e9f012';

test.describe('Claude Code and Codex sessions in the list', () => {
  test('grouped by directory with source badges; Continue in terminal; Open in Baton', async ({ page, work, launchHost }) => {
    // `work` is the fake user home that holds ~/.claude and ~/.codex.
    const root = await realpath(work.path);
    const api = join(root, 'src', 'api-server');
    const web = join(root, 'src', 'web-client');
    await mkdir(api, { recursive: true });
    await mkdir(web, { recursive: true });
    await writeClaudeSession(root, { id: CLAUDE_ID, cwd: api, branch: 'fix/login', prompt: 'Fix the login redirect loop', answer: 'The session cookie lacks SameSite; fixing.', startedAt: '2026-11-29T09:00:00.000Z' });
    await writeClaudeSession(root, { id: CLAUDE_ID_2, cwd: api, branch: 'main', prompt: 'Add rate limiting to /login', answer: 'Adding a token bucket.', startedAt: '2026-11-28T15:00:00.000Z' });
    await writeCodexSession(root, { id: CODEX_ID, cwd: web, branch: 'feature/date-picker', prompt: 'Make the date picker test stable', answer: 'Pinning TZ=UTC in the test setup.', startedAt: '2026-11-29T08:00:00.000Z' });

    const host = await launchHost({ HOME: root, CLAUDE_CONFIG_DIR: join(root, '.claude'), CODEX_HOME: join(root, '.codex') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(host.url);
    const candidates = new CandidatesPage(page);
    const sessions = new SessionsPage(page);

    // Grouped by directory, each with its source badge.
    await expect(candidates.row('claude', CLAUDE_ID)).toBeVisible();
    await expect(sessions.groups()).toHaveCount(2);
    await expect(sessions.sessionsIn(api)).toHaveCount(2);
    await expect(sessions.sessionsIn(web)).toHaveCount(1);
    await expect(candidates.row('claude', CLAUDE_ID)).toHaveAttribute('data-source', 'claude');
    await expect(candidates.row('claude', CLAUDE_ID).locator('.badge-source')).toHaveText('claude');
    await expect(candidates.row('codex', CODEX_ID).locator('.badge-source')).toHaveText('codex');
    await expect(candidates.row('claude', CLAUDE_ID)).toContainText('Fix the login redirect loop');
    await expect(candidates.scanStatus()).toHaveCount(0);

    // Search by branch narrows the list.
    await page.keyboard.press('/');
    await expect(candidates.search()).toBeFocused();
    await page.keyboard.type('date-picker');
    await expect(page.getByTestId('session-item')).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('session-item')).toHaveCount(3);

    // Continue in terminal on the Claude session: the exact resume command, run in its directory.
    await candidates.select('claude', CLAUDE_ID);
    await expect(candidates.panel()).toContainText('Fix the login redirect loop');
    await expect(candidates.panel()).toContainText('fix/login');
    const command = await candidates.continueInTerminal();
    await expect(command).toContainText(`claude --resume ${CLAUDE_ID}`);
    await expect(command).toContainText(`cd ${api}`);
    await page.screenshot({ path: join('test-results', 'screens', 'agents-candidate.png') });

    // Open in Baton: imported once, then shown as a Baton session.
    await candidates.openInBaton();
    await expect(page.getByTestId('session-title')).toHaveText('Fix the login redirect loop');
    await expect(page).toHaveURL(/#session=imp-/);
    await expect(sessions.messages().first()).toContainText('Fix the login redirect loop');
    await page.screenshot({ path: join('test-results', 'screens', 'agents-opened.png') });
  });
});
