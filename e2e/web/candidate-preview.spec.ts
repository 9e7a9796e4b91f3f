import { expect, test } from '../support/fixtures.js';
import { mkdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { writeClaudeSession, writeCodexSession } from '../support/agent-logs.js';
import { CandidatesPage } from '../pages/candidates-page.js';

const CLAUDE_ID = '5e4f5a6b-7c8d-4e9f-8a0b-1c2d3e4f5a6b';
const CODEX_ID = '019a0000-1111-7222-8333-444455556666';

/** Claude Code and Codex sessions not in Baton: read without importing, and found by their first prompt. */
test('a candidate shows its conversation read-only, and cross-session search finds it by its first prompt', async ({ page, work, launchHost }) => {
  const root = await realpath(work.path);
  const cwd = join(root, 'src', 'ledger');
  await mkdir(cwd, { recursive: true });
  await writeClaudeSession(root, { id: CLAUDE_ID, cwd, branch: 'main', prompt: 'Why does the narwhal ledger drift?', answer: '## Root cause\n\nThe **ledger** rounds twice.', startedAt: '2026-11-29T09:00:00.000Z' });
  await writeCodexSession(root, { id: CODEX_ID, cwd, branch: 'main', prompt: 'Add a retry to the uploader', answer: 'Retry added with backoff.', startedAt: '2026-11-29T10:00:00.000Z' });
  const host = await launchHost({ HOME: root, CLAUDE_CONFIG_DIR: join(root, '.claude'), CODEX_HOME: join(root, '.codex') });
  await page.goto(host.url);
  const candidates = new CandidatesPage(page);

  await candidates.select('claude', CLAUDE_ID);
  const preview = page.getByTestId('candidate-preview');
  await expect(preview.getByTestId('message')).toHaveCount(2);
  await expect(preview.getByTestId('message').first()).toContainText('Why does the narwhal ledger drift?');
  // The answer is rendered Markdown, as in a Baton session.
  await expect(preview.locator('h2', { hasText: 'Root cause' })).toBeVisible();
  await expect(preview).toContainText('2 of 2 messages');

  await candidates.select('codex', CODEX_ID);
  await expect(preview.getByTestId('message').last()).toContainText('Retry added with backoff.');

  // Found by its first prompt; the hit opens the candidate, still not imported.
  await page.getByTestId('open-search').click();
  await page.getByTestId('search-input').fill('narwhal ledg');
  const hits = page.getByTestId('search-hit');
  await expect(hits).toHaveCount(1);
  await expect(hits.first()).toHaveAttribute('data-session-id', `claude:${CLAUDE_ID}`);
  await hits.first().click();
  await expect(candidates.panel()).toBeVisible();
  await expect(page.getByTestId('candidate-title')).toHaveText('Why does the narwhal ledger drift?');
  await expect(candidates.row('claude', CLAUDE_ID)).toHaveCount(1);
});
