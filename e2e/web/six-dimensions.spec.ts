import { spawn } from 'node:child_process';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '../support/fixtures.js';
import { runBaton, writeConversation } from '../support/cli.js';
import { makeRepo, writeRepoFile } from '../support/git-repo.js';
import { writeClaudeSession } from '../support/agent-logs.js';
import { SessionsPage } from '../pages/sessions-page.js';
import { SessionViewPage } from '../pages/session-view-page.js';

/**
 * What a handoff carries besides the conversation, through the real CLI, the real `baton serve`
 * and real Chromium: the watched workspace, the session's background tasks and its permissions.
 */
test.describe('the dimensions a handoff carries', () => {
  test('the Changes tab watches the handed-off files: a file changed on disk turns the banner partial without a reload', async ({ page, home, work, launchHost }) => {
    const repo = join(work.path, 'shop');
    await makeRepo(repo, { 'src/cart.ts': 'export const TAX = 0.2;\n', 'README.md': '# shop\n' });
    await writeRepoFile(repo, 'src/cart.ts', 'export const TAX = 0.21;\nexport const SHIPPING = 5;\n');
    const messages = await writeConversation(work.path, 's.jsonl', [
      { role: 'user', content: 'Update the tax rate' },
      { role: 'assistant', content: 'Changed TAX and added SHIPPING.' },
    ]);
    const host = await launchHost();
    const handoff = await runBaton(['handoff', '--cwd', repo, '--title', 'Tax', '--messages', messages, '--json'], { home: home.path });
    expect(handoff.code, handoff.stderr).toBe(0);
    const { sessionId, answer } = JSON.parse(handoff.stdout) as { sessionId: string; answer: Record<string, unknown> };
    expect(answer.status).toBe('accepted');

    await page.goto(host.url);
    await new SessionsPage(page).open(sessionId);
    const view = new SessionViewPage(page);
    await view.openTab('changes');
    await expect(view.workspaceStatus()).toHaveAttribute('data-status', 'complete');
    // The watch starts with the tab; give the watch its ready moment, then edit the file outside Baton.
    await page.waitForTimeout(500);
    await writeFile(join(repo, 'src/cart.ts'), 'export const TAX = 0.25; // edited in another editor\n');
    await expect(view.workspaceStatus()).toHaveAttribute('data-status', 'partial', { timeout: 10_000 });
    await expect(view.driftedFiles().first()).toHaveAttribute('data-path', 'src/cart.ts');
    await page.screenshot({ path: join('test-results', 'screens', 'live-drift.png') });
  });

  test('a task registered before the handoff shows at the target with terminate / restart here and the exact command; never running once its process is gone', async ({ page, home, work, launchHost }) => {
    const repo = join(work.path, 'web');
    await makeRepo(repo, { 'package.json': '{"name":"web"}\n' });
    await writeRepoFile(repo, 'package.json', '{"name":"web","scripts":{"dev":"vite"}}\n');
    const messages = await writeConversation(work.path, 's.jsonl', [
      { role: 'user', content: 'Start the dev server' },
      { role: 'assistant', content: 'It runs on port 5173.' },
    ]);
    const first = await runBaton(['handoff', '--cwd', repo, '--title', 'Dev server', '--messages', messages, '--no-launch', '--json'], { home: home.path });
    expect(first.code, first.stderr).toBe(3); // nothing runs yet: saved, not offered
    const { sessionId } = JSON.parse(first.stdout) as { sessionId: string };
    const host = await launchHost();
    const server = spawn('sleep', ['120'], { stdio: 'ignore' });
    try {
      const reg = await runBaton(['task', 'register', '--id', 'vite-dev', '--kind', 'dev-server', '--command', 'npm run dev', '--pid', String(server.pid), '--port', '5173', '--session', sessionId, '--json'], { home: home.path });
      expect(reg.code, reg.stderr).toBe(0);
      const offer = await runBaton(['handoff', '--session', sessionId, '--json'], { home: home.path });
      expect(offer.code, offer.stderr).toBe(0);
      const manifest = (JSON.parse(offer.stdout) as { handoffId: string }).handoffId;
      expect(manifest).not.toBe((JSON.parse(first.stdout) as { handoffId: string }).handoffId);

      await page.goto(host.url);
      await new SessionsPage(page).open(sessionId);
      const task = page.locator('[data-testid="carried-task"][data-task-id="vite-dev"]');
      await expect(task).toHaveAttribute('data-state', 'running');
      await expect(task.getByTestId('carried-task-recommendation')).toContainText('Recommended: terminate or restart here.');
      await expect(task.getByTestId('restart-command')).toContainText(`cd ${repo} && npm run dev`);
      await expect(task).toContainText('pid');
      await page.screenshot({ path: join('test-results', 'screens', 'carried-task.png') });

      server.kill('SIGKILL');
      await new Promise((r) => server.once('exit', r));
      await page.reload();
      await expect(task).toHaveAttribute('data-state', 'stale');
      await expect(task.getByTestId('carried-task-state')).toHaveText('process gone');
      await expect(task.getByTestId('carried-task-recommendation')).toContainText('Its process is gone');
    } finally {
      server.kill('SIGKILL');
    }
  });

  test('an imported Claude Code session shows its carried permission mode and rules, its model and output style, and its background shell as not verifiable', async ({ page, home, work, launchHost }) => {
    const fakeHome = join(work.path, 'user');
    const configDir = join(work.path, 'claude-config'); // CLAUDE_CONFIG_DIR, not ~/.claude
    const project = join(work.path, 'api');
    await makeRepo(project, { 'index.js': 'module.exports = 1;\n' });
    await mkdir(join(project, '.claude'), { recursive: true });
    await mkdir(configDir, { recursive: true });
    await writeFile(join(configDir, 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(npm test:*)'], deny: ['Read(./.env)'] } }));
    await writeFile(join(project, '.claude', 'settings.json'), JSON.stringify({ outputStyle: 'Explanatory', permissions: { deny: ['Bash(git push:*)'] } }));
    const log = await writeClaudeSession(fakeHome, { id: '7d1c2a30-5b7e-4a53-9d0e-2f1e4c6b8a90', cwd: project, branch: 'main', prompt: 'Serve the docs', answer: 'Serving them in the background.', startedAt: '2026-11-30T09:00:00.000Z' });
    const base = { isSidechain: false, userType: 'external', cwd: project, sessionId: '7d1c2a30-5b7e-4a53-9d0e-2f1e4c6b8a90', version: '2.1.39', gitBranch: 'main' };
    await appendFile(
      log,
      [
        { ...base, parentUuid: 'a1', type: 'assistant', uuid: 'a2', timestamp: '2026-11-30T09:00:05.000Z', requestId: 'req_2', message: { model: 'claude-opus-4-6', id: 'msg_2', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_bg', name: 'Bash', input: { command: 'python3 -m http.server 8000', run_in_background: true } }], stop_reason: 'tool_use', usage: { input_tokens: 5, output_tokens: 5 } } },
        { ...base, parentUuid: 'a2', type: 'user', uuid: 'u2', timestamp: '2026-11-30T09:00:06.000Z', message: { role: 'user', content: [{ tool_use_id: 'toolu_bg', type: 'tool_result', content: 'Command running in background with ID: bash_1', is_error: false }] }, toolUseResult: { stdout: '', stderr: '', interrupted: false, backgroundTaskId: 'bash_1' } },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n') + '\n',
    );
    const host = await launchHost();
    const env = { HOME: fakeHome, CLAUDE_CONFIG_DIR: configDir };
    const handoff = await runBaton(['handoff', '--from', 'claude', '--session', log, '--json'], { home: home.path, env });
    expect(handoff.code, handoff.stderr + handoff.stdout).toBe(0);
    const { sessionId } = JSON.parse(handoff.stdout) as { sessionId: string };

    await page.goto(host.url);
    await new SessionsPage(page).open(sessionId);
    const permissions = page.getByTestId('carried-permissions');
    await expect(permissions.getByTestId('carried-mode')).toHaveText('default');
    await expect(permissions.getByTestId('in-force-mode')).toHaveText('default');
    await expect(permissions.getByTestId('carried-rules')).toContainText('Bash(npm test:*)');
    await expect(permissions.getByTestId('carried-rules')).toContainText('Read(./.env)');
    await expect(permissions.getByTestId('carried-rules')).toContainText('Bash(git push:*)');
    await expect(permissions).toContainText(join(configDir, 'settings.json'));
    // The model & config dimension, beside the permissions: the transcript's model and the project's output style.
    const model = page.getByTestId('carried-model');
    await expect(model.getByTestId('carried-model-name')).toHaveText('claude-opus-4-6');
    await expect(model).toContainText('Explanatory');
    await expect(model).toContainText('Settings artifact');
    const shell = page.locator('[data-testid="carried-task"][data-task-id="claude-shell-bash_1"]');
    await expect(shell).toHaveAttribute('data-state', 'unverified');
    await expect(shell.getByTestId('carried-task-recommendation')).toContainText('Claude Code transcript');
    await expect(shell.getByTestId('restart-command')).toContainText(`cd ${project} && python3 -m http.server 8000`);
    await page.screenshot({ path: join('test-results', 'screens', 'carried-permissions.png') });
  });
});
