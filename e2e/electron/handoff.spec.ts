import { expect, test } from '../support/fixtures.js';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { runBaton, writeConversation } from '../support/cli.js';
import { SessionsPage } from '../pages/sessions-page.js';

/**
 * Desktop-only scenarios (the shared ones come from e2e/web through the same fixture). The web
 * project never matches this folder; in the electron project each test skips with one line where
 * no Electron runtime is installed.
 */
test.describe('electron host', () => {
  test('the window exposes exactly the documented bridge, and no Node', async ({ page, launchHost }) => {
    await launchHost();
    const shape = await page.evaluate(() => ({
      keys: Object.keys((window as unknown as { baton: object }).baton).sort(),
      require: typeof (window as unknown as { require?: unknown }).require,
      process: typeof (window as unknown as { process?: unknown }).process,
      origin: location.origin,
    }));
    expect(shape).toEqual({ keys: ['invoke', 'on'], require: 'undefined', process: 'undefined', origin: 'app://baton' });
  });

  test('shows two working-directory groups handed off by the CLI', async ({ page, home, work, launchHost }) => {
    await launchHost();
    for (const name of ['one', 'two']) {
      const dir = join(work.path, name);
      await mkdir(dir);
      const file = await writeConversation(work.path, `${name}.jsonl`, [{ role: 'user', content: `hello from ${name}` }]);
      const run = await runBaton(['handoff', '--cwd', dir, '--title', name, '--messages', file, '--no-launch', '--json'], { home: home.path });
      expect(run.code, run.stderr).toBe(0);
    }
    await expect(new SessionsPage(page).groups()).toHaveCount(2);
  });

  test('preferences persist in the desktop shell across a restart, not in BATON_HOME', async ({ page, home, launchHost }) => {
    const first = await launchHost();
    const saved = await page.evaluate(() => (window as unknown as { baton: { invoke(c: string, p: unknown): Promise<unknown> } }).baton.invoke('prefs:set', { theme: 'dark' }));
    expect(saved).toMatchObject({ ok: true, value: { theme: 'dark' } });
    await first.stop();
    await launchHost();
    const read = await page.evaluate(() => (window as unknown as { baton: { invoke(c: string, p: unknown): Promise<unknown> } }).baton.invoke('prefs:get', {}));
    expect(read).toMatchObject({ ok: true, value: { theme: 'dark' } });
    const { readdir } = await import('node:fs/promises');
    expect((await readdir(home.path, { recursive: true })).filter((f) => String(f).includes('preferences'))).toEqual([]);
  });
});
