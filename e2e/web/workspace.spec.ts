import { expect, test } from '../support/fixtures.js';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runBaton, writeConversation } from '../support/cli.js';
import { git, makeRepo, writeRepoFile } from '../support/git-repo.js';
import { SessionsPage } from '../pages/sessions-page.js';
import { SessionViewPage } from '../pages/session-view-page.js';

const RATE_LIMIT_BEFORE = `export function handle(request: Request): Response {\n  return route(request);\n}\n`;
const RATE_LIMIT_AFTER = `import { TokenBucket } from './token-bucket';\n\nconst bucket = new TokenBucket({ capacity: 10, refillPerSecond: 1 });\n\nexport function handle(request: Request): Response {\n  if (!bucket.take(clientOf(request))) return new Response('Too many requests', { status: 429 });\n  return route(request);\n}\n`;

test.describe('the Changes tab of a handed-off workspace', () => {
  const browserErrors: string[] = [];

  test.beforeEach(async ({ page }) => {
    browserErrors.length = 0;
    // A CSP violation (Monaco's workers, styles or fonts) shows up as a console error: the spec fails on any.
    page.on('console', (message) => message.type() === 'error' && browserErrors.push(message.text()));
    page.on('pageerror', (error) => browserErrors.push(error.message));
  });

  test('lists the three changed files, shows one in Monaco, then marks the session partial when a file drifts', async ({ page, home, work, launchHost }) => {
    const repo = join(work.path, 'api-server');
    await makeRepo(repo, {
      'src/middleware/rate-limit.ts': RATE_LIMIT_BEFORE,
      'src/legacy/throttle.ts': 'export const THROTTLE_MS = 250;\n',
      'README.md': '# api-server\n',
    });
    await writeRepoFile(repo, 'src/middleware/rate-limit.ts', RATE_LIMIT_AFTER);
    await writeRepoFile(repo, 'src/middleware/token-bucket.ts', 'export class TokenBucket {\n  constructor(readonly options: { capacity: number; refillPerSecond: number }) {}\n  take(_key: string): boolean {\n    return true;\n  }\n}\n');
    await rm(join(repo, 'src/legacy/throttle.ts'));
    expect(await git(repo, 'status', '--porcelain')).toContain('?? src/middleware/token-bucket.ts');

    const messages = await writeConversation(work.path, 'session.jsonl', [
      { role: 'user', content: 'Add rate limiting to the API' },
      { role: 'assistant', content: 'Added a token bucket in middleware and removed the old throttle.' },
    ]);
    const host = await launchHost();
    const handoff = await runBaton(['handoff', '--cwd', repo, '--title', 'Rate limiting', '--messages', messages, '--json'], { home: home.path });
    expect(handoff.code, handoff.stderr).toBe(0);
    const { sessionId } = JSON.parse(handoff.stdout) as { sessionId: string };

    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(host.url);
    const sessions = new SessionsPage(page);
    await sessions.open(sessionId);
    const view = new SessionViewPage(page);
    await view.openTab('changes');
    await expect(page).toHaveURL(/tab=changes/);

    await expect(view.workspaceStatus()).toHaveAttribute('data-status', 'complete');
    await expect(view.workspaceStatus()).toContainText('Your working tree matches the handoff');
    await expect(view.files()).toHaveCount(3);
    await expect(view.file('src/middleware/rate-limit.ts')).toHaveAttribute('data-status', 'modified');
    await expect(view.file('src/middleware/token-bucket.ts')).toHaveAttribute('data-status', /added|untracked/);
    await expect(view.file('src/legacy/throttle.ts')).toHaveAttribute('data-status', 'deleted');

    await view.file('src/middleware/rate-limit.ts').click();
    await expect(view.openFilePath()).toHaveText('src/middleware/rate-limit.ts');
    await expect(view.monacoDiff()).toBeVisible({ timeout: 20_000 });
    await expect(page.locator('.monaco-diff-editor .modified-in-monaco-diff-editor .view-lines')).toContainText('TokenBucket');
    await page.screenshot({ path: join('test-results', 'screens', 'diff-viewer.png') });

    // ] steps to the next file in the list; the viewer follows.
    await page.locator('body').press(']');
    await expect(view.openFilePath()).not.toHaveText('src/middleware/rate-limit.ts');

    // Someone edits one of the handed-off files on this disk: the next check says partial and names it.
    await writeFile(join(repo, 'src/middleware/rate-limit.ts'), RATE_LIMIT_AFTER + '// edited after the handoff\n');
    await view.recheck().click();
    await expect(view.workspaceStatus()).toHaveAttribute('data-status', 'partial');
    await expect(view.driftedFiles()).toHaveCount(1);
    await expect(view.driftedFiles().first()).toHaveAttribute('data-path', 'src/middleware/rate-limit.ts');
    await page.screenshot({ path: join('test-results', 'screens', 'workspace-partial.png') });

    // A reload keeps the session and the tab (both are in the address).
    await page.reload();
    await expect(view.tab('changes')).toHaveAttribute('aria-selected', 'true');
    await expect(view.workspaceStatus()).toHaveAttribute('data-status', 'partial');

    // Take the handed-off version back, after the confirmation.
    await page.getByTestId('take-file').click();
    await expect(page.getByTestId('confirm-dialog')).toContainText('src/middleware/rate-limit.ts');
    await expect(page.getByTestId('confirm-dialog')).toContainText("kept under this session's artifacts");
    await page.getByTestId('confirm-dialog-confirm').click();
    await expect(page.getByTestId('rehydrate-result')).toContainText('Applied');
    await expect(view.workspaceStatus()).toHaveAttribute('data-status', 'complete');

    await view.openTab('history');
    await expect(page.getByTestId('history-rehydration')).toHaveCount(1);
    expect(browserErrors, browserErrors.join('\n')).toEqual([]);
  });
});
