import { expect, test } from '../support/fixtures.js';
import { mkdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { writeClaudeSession } from '../support/agent-logs.js';
import { CandidatesPage } from '../pages/candidates-page.js';
import { SessionsPage } from '../pages/sessions-page.js';

const FIRST = '1b2c3d4e-5f60-4a71-8b82-93a4b5c6d7e8';
const LATER = '2c3d4e5f-6071-4b82-8c93-a4b5c6d7e8f9';

test.describe('Claude Code sessions appear live (issue 15)', () => {
  test('a session file written while the page is open is listed within a second, without a reload or a rescan', async ({ page, work, launchHost }) => {
    const root = await realpath(work.path);
    const api = join(root, 'src', 'api');
    await mkdir(api, { recursive: true });
    await writeClaudeSession(root, { id: FIRST, cwd: api, branch: 'main', prompt: 'First prompt', answer: 'ok', startedAt: '2026-11-29T09:00:00.000Z' });

    const host = await launchHost({ HOME: root, CLAUDE_CONFIG_DIR: join(root, '.claude'), CODEX_HOME: join(root, '.codex') });
    await page.goto(host.url);
    const candidates = new CandidatesPage(page);
    const sessions = new SessionsPage(page);
    await expect(candidates.row('claude', FIRST)).toBeVisible();
    await expect(candidates.scanStatus()).toHaveCount(0);

    const loads: string[] = [];
    page.on('framenavigated', (frame) => loads.push(frame.url()));
    const started = Date.now();
    await writeClaudeSession(root, { id: LATER, cwd: api, branch: 'main', prompt: 'Written while the page is open', answer: 'ok', startedAt: '2026-11-29T10:00:00.000Z' });
    await expect(candidates.row('claude', LATER)).toBeVisible({ timeout: 2_000 });
    expect(Date.now() - started).toBeLessThan(1_500);
    await expect(sessions.sessionsIn(api)).toHaveCount(2);
    // Newest first in its group, and no navigation happened.
    await expect(sessions.sessionsIn(api).first()).toContainText('Written while the page is open');
    expect(loads).toEqual([]);
    await expect(candidates.scanStatus()).toHaveCount(0);
  });
});
