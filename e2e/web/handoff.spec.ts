import { expect, test } from '../support/fixtures.js';
import { mkdir, readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { runBaton, writeConversation } from '../support/cli.js';
import { SessionsPage } from '../pages/sessions-page.js';

test.describe('handoff from two working directories', () => {
  test('the UI shows both groups and the messages of a session', async ({ page, home, work, launchHost }, testInfo) => {
    const host = await launchHost();
    const api = join(work.path, 'api-server');
    const web = join(work.path, 'web-client');
    await Promise.all([mkdir(api), mkdir(web)]);

    const apiFile = await writeConversation(work.path, 'api.jsonl', [
      { role: 'user', content: 'Add rate limiting to the /login endpoint' },
      { role: 'assistant', content: 'I will add a token bucket in middleware/rate-limit.ts.' },
    ]);
    const webFile = await writeConversation(work.path, 'web.jsonl', [
      { role: 'user', content: 'Fix the flaky date picker test' },
      { role: 'assistant', content: 'The test depends on the local time zone; pinning TZ=UTC.' },
      { role: 'user', content: 'Great, also update the snapshot.' },
    ]);

    const first = await runBaton(['handoff', '--cwd', api, '--title', 'Rate limiting for login', '--messages', apiFile, '--json'], { home: home.path });
    expect(first.code, first.stderr).toBe(0);
    const second = await runBaton(['handoff', '--cwd', web, '--title', 'Flaky date picker', '--messages', webFile, '--json'], { home: home.path });
    expect(second.code, second.stderr).toBe(0);
    const webSession = JSON.parse(second.stdout) as { sessionId: string; category: string };
    expect(webSession.category).toBe('accepted');

    await page.goto(host.url);
    const sessions = new SessionsPage(page);
    await expect(sessions.groups()).toHaveCount(2);
    await expect(sessions.sessionsIn(await realpath(api))).toHaveCount(1);
    await expect(sessions.sessionsIn(await realpath(web))).toHaveCount(1);

    await sessions.open(webSession.sessionId);
    await expect(sessions.messages()).toHaveCount(3);
    await expect(sessions.messages().first()).toContainText('Fix the flaky date picker test');
    await expect(sessions.messages().first()).toHaveAttribute('data-role', 'user');
    await page.screenshot({ path: testInfo.outputPath('two-groups.png'), fullPage: true });
    await page.screenshot({ path: join('test-results', 'screens', 'two-groups.png'), fullPage: true });
  });

  test('a handoff that arrives while the page is open appears live', async ({ page, home, work, launchHost }) => {
    const host = await launchHost();
    await page.goto(host.url);
    await expect(page.getByTestId('empty-state')).toBeVisible();
    const file = await writeConversation(work.path, 'live.jsonl', [{ role: 'user', content: 'Live one' }]);
    const run = await runBaton(['handoff', '--cwd', work.path, '--title', 'Arrives live', '--messages', file, '--json'], { home: home.path });
    expect(run.code, run.stderr).toBe(0);
    const sessions = new SessionsPage(page);
    await expect(sessions.groups()).toHaveCount(1);
    await expect(page.getByText('Arrives live').first()).toBeVisible();
    // With the host running the CLI asked it to land and take the session (issue 20, a hosted
    // handoff): the host's event line says so, once, for this session.
    const { sessionId } = JSON.parse(run.stdout) as { sessionId: string };
    const hostedEvents = async () =>
      (await readFile(join(home.path, 'events.jsonl'), 'utf8').catch(() => ''))
        .split('\n')
        .filter((line) => line.includes(sessionId) && line.includes('"side":"source"') && line.includes('"hosted":true')).length;
    await expect.poll(hostedEvents).toBe(1);
  });

  test('with no host running, the CLI says where the session is saved; after the host starts it is accepted once', async ({ page, home, work, launchHost }) => {
    const file = await writeConversation(work.path, 'late.jsonl', [{ role: 'user', content: 'Handed off before the app ran' }]);
    const offline = await runBaton(['handoff', '--cwd', work.path, '--title', 'Saved while offline', '--messages', file], { home: home.path });
    expect(offline.code).toBe(3);
    expect(offline.stderr).toContain('The session is saved at');
    const resume = /baton handoff --session (\S+)/.exec(offline.stderr);
    expect(resume, offline.stderr).not.toBeNull();

    const host = await launchHost();
    const again = await runBaton(['handoff', '--session', resume![1]!, '--json'], { home: home.path });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).category).toBe('accepted');
    const replay = await runBaton(['handoff', '--session', resume![1]!, '--json'], { home: home.path });
    expect(JSON.parse(replay.stdout).category).toBe('duplicate');

    await page.goto(host.url);
    await expect(new SessionsPage(page).session(resume![1]!)).toHaveCount(1);
  });
});
