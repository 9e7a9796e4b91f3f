import { _electron as electron, expect, test } from '@playwright/test';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, REPO_ROOT, runBaton, writeConversation } from '../support/cli.js';

/** The Electron runtime is fetched on first use; where it was never fetched (no internet) this project skips. */
function electronRuntime(): { path: string } | { missing: string } {
  const require = createRequire(import.meta.url);
  const dir = join(require.resolve('electron/package.json'), '..');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile) || !existsSync(join(dir, 'dist'))) return { missing: 'the Electron runtime is not installed here (no internet to fetch it)' };
  if (process.platform === 'linux' && !process.env.DISPLAY) return { missing: 'no DISPLAY (run under xvfb-run)' };
  return { path: require('electron') as string };
}

test.describe('electron host', () => {
  const runtime = electronRuntime();

  test.beforeEach(({}, testInfo) => {
    testInfo.skip('missing' in runtime, `skipped: ${'missing' in runtime ? runtime.missing : ''}`);
  });

  test('shows two working-directory groups handed off by the CLI', async () => {
    const home = await makeTempDir('baton-electron-home-');
    const work = await makeTempDir('baton-electron-work-');
    const app = await electron.launch({ args: [REPO_ROOT], env: { ...process.env, BATON_HOME: home.path } });
    try {
      const window = await app.firstWindow();
      for (const name of ['one', 'two']) {
        const dir = join(work.path, name);
        await import('node:fs/promises').then((fs) => fs.mkdir(dir));
        const file = await writeConversation(work.path, `${name}.jsonl`, [{ role: 'user', content: `hello from ${name}` }]);
        let run = await runBaton(['handoff', '--cwd', dir, '--title', name, '--messages', file, '--no-launch', '--json'], { home: home.path });
        for (let i = 0; run.code === 3 && i < 20; i++) {
          await new Promise((r) => setTimeout(r, 250));
          run = await runBaton(['handoff', '--session', JSON.parse(run.stdout).sessionId, '--no-launch', '--json'], { home: home.path });
        }
        expect(run.code, run.stderr).toBe(0);
      }
      await expect(window.getByTestId('session-group')).toHaveCount(2);
    } finally {
      await app.close();
      await home.remove();
      await work.remove();
    }
  });
});
