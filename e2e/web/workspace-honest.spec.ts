import { expect, test } from '../support/fixtures.js';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runBaton, writeConversation } from '../support/cli.js';
import { git, makeRepo, writeRepoFile } from '../support/git-repo.js';
import { SessionsPage } from '../pages/sessions-page.js';
import { SessionViewPage } from '../pages/session-view-page.js';
import { SCREENS } from '../support/screens.js';

// A 1×1 transparent PNG: the real bytes the preview must show.
const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** The workspace actions say what is true: one-sided files, images, drift as a diff, a moved HEAD, no impossible worktree. */
test('added files have no phantom line, images are previewed, drift is a diff, a moved HEAD is explained, and a missing repository offers no worktree', async ({ page, home, work, launchHost }) => {
  test.setTimeout(120_000);
  const repo = join(work.path, 'shop');
  await makeRepo(repo, { 'src/cart.ts': 'export const total = 1;\n', 'README.md': '# shop\n' });
  await writeFile(join(repo, 'logo.png'), PNG_1X1);
  await git(repo, 'add', 'logo.png');
  await git(repo, 'commit', '-q', '-m', 'logo');
  await writeRepoFile(repo, 'src/cart.ts', 'export const total = 2;\n');
  await writeRepoFile(repo, 'src/coupon.ts', 'export const coupon = "SAVE10";\nexport const rate = 0.1;\n');
  // Bytes after IEND are ignored by decoders: a changed file that still renders.
  await writeFile(join(repo, 'logo.png'), Buffer.concat([PNG_1X1, Buffer.from('changed')]));
  const messages = await writeConversation(work.path, 'session.jsonl', [
    { role: 'user', content: 'Add coupons' },
    { role: 'assistant', content: 'Added src/coupon.ts.' },
  ]);
  const host = await launchHost();
  const handoff = await runBaton(['handoff', '--cwd', repo, '--title', 'Coupons', '--messages', messages, '--json'], { home: home.path });
  expect(handoff.code, handoff.stderr).toBe(0);
  const { sessionId } = JSON.parse(handoff.stdout) as { sessionId: string };

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(host.url);
  await new SessionsPage(page).open(sessionId);
  const view = new SessionViewPage(page);
  await view.openTab('changes');

  // An untracked file is shown as the new file, every line marked added: no red `1 −`.
  await view.file('src/coupon.ts').click();
  const frame = page.locator('[data-testid="diff-editor"][data-state="ready"]');
  await expect(frame).toHaveAttribute('data-one-side', 'added', { timeout: 20_000 });
  await expect(frame.locator('.single-editor-host .view-lines')).toContainText('SAVE10');
  await expect(frame.locator('.single-editor-host .line-added')).toHaveCount(3);
  await expect(frame.locator('.monaco-diff-editor')).toBeHidden();
  await expect(page.locator('.line-delete, .char-delete')).toHaveCount(0);
  // Open in editor, in the browser: VS Code's link to the file where it is on this disk.
  await expect(page.getByTestId('open-in-vscode')).toHaveAttribute('href', `vscode://file${repo}/src/coupon.ts:1`);

  // A binary image: both sides previewed from the host's bytes (data: URLs, allowed by the CSP), really decoded.
  await view.file('logo.png').click();
  const images = page.getByTestId('binary-image');
  await expect(images).toHaveCount(2);
  await expect.poll(() => images.evaluateAll((all) => all.map((img) => (img as HTMLImageElement).naturalWidth))).toEqual([1, 1]);

  // Drift: the file changes on disk after the handoff; the banner opens it as a diff.
  await writeRepoFile(repo, 'src/cart.ts', 'export const total = 3; // edited after the handoff\n');
  await view.recheck().click();
  await expect(view.workspaceStatus()).toHaveAttribute('data-status', 'partial');
  const drifted = view.driftedFiles().filter({ hasText: 'src/cart.ts' });
  await drifted.getByTestId('drift-show-diff').click();
  await expect(drifted.getByTestId('drift-diff').locator('.view-lines').first()).toContainText('edited after the handoff', { timeout: 20_000 });
  await page.screenshot({ path: join(SCREENS, 'drift-diff.png') });

  // A moved HEAD: a commit here after the handoff, said in words with short hashes.
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '-q', '-m', 'after the handoff');
  await view.recheck().click();
  const head = view.workspaceStatus().locator('[data-code="head-drift"]');
  await expect(head).toContainText(/HEAD moved 1 commit ahead of the handoff \(the handoff was made at [0-9a-f]{7}, this repository is at [0-9a-f]{7}\)/);
  expect(await head.textContent()).not.toMatch(/[0-9a-f]{40}/);

  // The repository goes away: no "Recreate in a worktree" (it could only fail), and what to do instead.
  await rename(repo, `${repo}-moved`);
  await view.recheck().click();
  await expect(view.workspaceStatus()).toHaveAttribute('data-status', 'none');
  await expect(page.getByTestId('worktree-action')).toHaveCount(0);
  await expect(view.workspaceStatus()).toContainText('Clone it (or move it back)');
  await rename(`${repo}-moved`, repo);
});
