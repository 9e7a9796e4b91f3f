import { expect, test } from '../support/fixtures.js';
import { mkdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { writeClaudeSession } from '../support/agent-logs.js';
import { CandidatesPage } from '../pages/candidates-page.js';

const CLAUDE_ID = '3e4f5a6b-7c8d-4e9f-8a0b-1c2d3e4f5a6b';

test('after "Open in Baton" the list shows the imported session once, without a reload', async ({ page, work, launchHost }) => {
  const root = await realpath(work.path);
  const cwd = join(root, 'src', 'billing');
  await mkdir(cwd, { recursive: true });
  await writeClaudeSession(root, { id: CLAUDE_ID, cwd, branch: 'main', prompt: 'Fix the invoice rounding', answer: 'Rounding half-even now.', startedAt: '2026-11-29T09:00:00.000Z' });
  const host = await launchHost({ HOME: root, CLAUDE_CONFIG_DIR: join(root, '.claude'), CODEX_HOME: join(root, '.codex') });
  await page.goto(host.url);
  const candidates = new CandidatesPage(page);
  await candidates.select('claude', CLAUDE_ID);
  await candidates.openInBaton();
  await expect(page.getByTestId('session-title')).toHaveText('Fix the invoice rounding');
  await expect(candidates.row('claude', CLAUDE_ID)).toHaveCount(0);
  await expect(page.getByTestId('session-item').filter({ hasText: 'Fix the invoice rounding' })).toHaveCount(1);
  // Still once after the host's candidate list catches up (a reload asks it again).
  await page.reload();
  await expect(page.getByTestId('session-title')).toHaveText('Fix the invoice rounding');
  await expect(page.getByTestId('session-item').filter({ hasText: 'Fix the invoice rounding' })).toHaveCount(1);
  await expect(candidates.row('claude', CLAUDE_ID)).toHaveCount(0);
});
