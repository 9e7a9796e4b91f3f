import { expect, test } from '../support/fixtures.js';
import { runBaton } from '../support/cli.js';
import { UnlockPage } from '../pages/unlock-page.js';

/**
 * The desktop app on a passphrase store (issue 17): its main process starts the host locked (no
 * terminal to ask on), the window shows the unlock screen, and the passphrase travels over the
 * preload's typed bridge only (`store:unlock`), never argv, a URL or a file. The full scenario
 * (wrong passphrase, sessions, CLI, Lock) is e2e/web/unlock.spec.ts, which this project also runs.
 */
const PASSPHRASE = 'electron unlock passphrase WALLABY-2207';

test.describe('electron host, passphrase store', () => {
  test('starts on the unlock screen; the bridge unlocks and locks the store', async ({ page, home, launchHost }) => {
    const enable = await runBaton(['encrypt', '--enable', '--passphrase', '--json'], { home: home.path, input: `${PASSPHRASE}\n` });
    expect(enable.code, enable.stderr).toBe(0);
    await launchHost();
    const unlock = new UnlockPage(page);
    await expect(unlock.screen()).toBeVisible();
    const bridge = (channel: string, payload: unknown) =>
      page.evaluate(([c, p]) => (window as unknown as { baton: { invoke(c: string, p: unknown): Promise<unknown> } }).baton.invoke(c as string, p), [channel, payload] as const);
    expect(await bridge('sessions:list', {})).toMatchObject({ ok: false, error: { code: 'LOCKED' } });
    await unlock.unlockWith(PASSPHRASE);
    await expect(unlock.lockButton()).toBeVisible();
    expect(await bridge('sessions:list', {})).toMatchObject({ ok: true });
    expect((await runBaton(['list', '--json', '--no-agents'], { home: home.path })).code).toBe(0);
    await unlock.lockButton().click();
    await expect(unlock.screen()).toBeVisible();
    expect((await runBaton(['list', '--json', '--no-agents'], { home: home.path })).code).toBe(6);
  });
});
