import { expect, test } from '../support/fixtures.js';
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runBaton } from '../support/cli.js';

/** The tasks panel's actions on a real process, registered by the real CLI, in real Chromium. */
test('a task is stopped only after confirmation (the real process ends), its log opens, its port links, finished ones are cleared', async ({ page, home, work, launchHost }) => {
  const host = await launchHost();
  const server = spawn('sleep', ['120'], { stdio: 'ignore' });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => server.once('exit', (_code, signal) => resolve(signal)));
  try {
    const log = join(work.path, 'dev.log');
    await writeFile(log, 'vite v7 dev server\nready on http://localhost:5173\n');
    const reg = await runBaton(['task', 'register', '--id', 'vite-dev', '--kind', 'dev-server', '--command', 'npm run dev', '--pid', String(server.pid), '--port', '5173', '--log', log, '--json'], { home: home.path });
    expect(reg.code, reg.stderr).toBe(0);
    const build = await runBaton(['task', 'register', '--id', 'build', '--kind', 'build', '--command', 'npm run build', '--json'], { home: home.path });
    expect(build.code, build.stderr).toBe(0);
    const done = await runBaton(['task', 'complete', 'build', '--epoch', '1', '--status', 'completed', '--exit-code', '0', '--json'], { home: home.path });
    expect(done.code, done.stderr).toBe(0);

    await page.goto(host.url);
    await page.getByTestId('open-tasks').click();
    const task = page.locator('[data-testid="task"][data-task-id="vite-dev"]');
    await expect(task).toHaveAttribute('data-state', 'running');

    await task.getByTestId('task-open-log').click();
    await expect(task.getByTestId('task-log-view')).toContainText('ready on http://localhost:5173');
    await expect(task.getByTestId('task-open-port')).toHaveAttribute('href', 'http://localhost:5173/');

    // Stop asks first: nothing is signalled on the first click, or on Cancel.
    await task.getByTestId('terminate').click();
    await expect(task.getByTestId('terminate-confirm')).toContainText(`npm run dev (pid ${server.pid})`);
    await task.getByRole('button', { name: 'Cancel' }).click();
    expect(server.exitCode === null && server.signalCode === null).toBe(true);
    await task.getByTestId('terminate').click();
    await task.getByTestId('terminate-confirmed').click();
    expect(await exited).toBe('SIGTERM');
    await expect(task).toHaveAttribute('data-state', 'failed');

    await page.getByTestId('tasks-clear-finished').click();
    await expect(page.getByTestId('task')).toHaveCount(0);
  } finally {
    server.kill('SIGKILL');
  }
});
