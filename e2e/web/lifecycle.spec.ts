import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../support/fixtures.js';
import { runBaton, writeConversation } from '../support/cli.js';
import { SessionsPage } from '../pages/sessions-page.js';
import { LifecyclePage } from '../pages/lifecycle-page.js';

/** Issue 21 from the UI: archive then unarchive, delete with its confirmation, purge (CLI dry run, then the settings panel). */
async function saveSession(home: string, work: string, title: string): Promise<string> {
  const file = await writeConversation(work, `${title}.jsonl`, Array.from({ length: 6 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `${title} message ${i}` })));
  const saved = await runBaton(['handoff', '--cwd', work, '--title', title, '--messages', file, '--dry-run', '--json'], { home });
  expect(saved.code, saved.stderr).toBe(0);
  return (JSON.parse(saved.stdout) as { sessionId: string }).sessionId;
}

test.describe('session lifecycle in the UI', () => {
  test('archive leaves the list for the searchable Archived section; unarchive brings it back', async ({ page, home, work, launchHost }) => {
    const keep = await saveSession(home.path, work.path, 'Keep me');
    const old = await saveSession(home.path, work.path, 'Old experiment');
    const host = await launchHost();
    await page.goto(host.url);
    const sessions = new SessionsPage(page);
    const life = new LifecyclePage(page);
    await sessions.open(old);
    await life.archive().click();
    await expect(sessions.session(old)).toHaveCount(0);
    await expect(sessions.session(keep)).toBeVisible();
    await life.openArchived();
    await page.getByTestId('archived-search').fill('experiment');
    await expect(life.archivedItem(old)).toBeVisible();
    await page.getByTestId('archived-search').fill('nothing like it');
    await expect(life.archivedItem(old)).toHaveCount(0);
    await page.getByTestId('archived-search').fill('');
    await life.archivedItem(old).click();
    await expect(page.getByTestId('session-title')).toHaveText('Old experiment');
    await life.unarchive().click();
    await expect(sessions.session(old)).toBeVisible();
    expect(existsSync(join(home.path, 'sessions', old))).toBe(true);
  });

  test('Archive all on a directory group archives its sessions', async ({ page, home, work, launchHost }) => {
    const a = await saveSession(home.path, work.path, 'First of group');
    const b = await saveSession(home.path, work.path, 'Second of group');
    const host = await launchHost();
    await page.goto(host.url);
    const sessions = new SessionsPage(page);
    await expect(sessions.session(a)).toBeVisible();
    const group = sessions.groups().filter({ has: sessions.session(a) });
    await group.getByTestId('archive-group').click({ force: true });
    await expect(sessions.session(a)).toHaveCount(0);
    await expect(sessions.session(b)).toHaveCount(0);
    const listed = await runBaton(['list', '--no-agents', '--archived'], { home: home.path });
    expect(listed.stdout.match(/\[archived\]/g)).toHaveLength(2);
  });

  test('delete names what goes, Cancel keeps it, confirming removes every file', async ({ page, home, work, launchHost }) => {
    const id = await saveSession(home.path, work.path, 'Delete me');
    const host = await launchHost();
    await page.goto(host.url);
    const sessions = new SessionsPage(page);
    const life = new LifecyclePage(page);
    await sessions.open(id);
    await page.getByTestId('delete-session').click();
    await expect(life.deleteDialog()).toBeVisible();
    await expect(page.getByTestId('delete-what')).toContainText('“Delete me” (live): 6 messages');
    await page.getByTestId('delete-dialog-cancel').click();
    await expect(life.deleteDialog()).toHaveCount(0);
    expect(existsSync(join(home.path, 'sessions', id))).toBe(true);
    await page.getByTestId('delete-session').click();
    await page.getByTestId('delete-dialog-confirm').click();
    await expect(sessions.session(id)).toHaveCount(0);
    await expect(page.getByTestId('session-title')).toHaveCount(0);
    expect(existsSync(join(home.path, 'sessions', id))).toBe(false);
  });

  test('purge: the CLI dry run lists with sizes and removes nothing; the settings panel shows the same sizes and removes it all', async ({ page, home, work, launchHost }) => {
    const one = await saveSession(home.path, work.path, 'Purge one');
    const two = await saveSession(home.path, work.path, 'Purge two');
    expect((await runBaton(['archive', two], { home: home.path })).code).toBe(0);
    const dry = await runBaton(['purge', '--dry-run', '--json'], { home: home.path });
    const plan = JSON.parse(dry.stdout) as { items: Array<{ kind: string; name: string }>; bytes: number };
    expect(plan.items.filter((i) => i.kind === 'session' || i.kind === 'archived').map((i) => i.name).sort()).toEqual([one, two].sort());
    expect(existsSync(join(home.path, 'sessions', one))).toBe(true);

    const host = await launchHost();
    await page.goto(host.url);
    const life = new LifecyclePage(page);
    // The stats panel shows disk use per state and the largest sessions before anything goes.
    await page.getByTestId('open-stats').click();
    await expect(page.getByTestId('stat-live-bytes')).toContainText('1 sessions');
    await expect(page.getByTestId('stat-archived-bytes')).toContainText('1 sessions');
    await expect(page.getByTestId('largest-sessions').locator('li')).toHaveCount(2);
    const panel = await life.openData();
    await expect(panel.getByTestId('purge-items').locator('tr[data-kind="session"]')).toHaveCount(1);
    await expect(panel.getByTestId('purge-items').locator('tr[data-kind="archived"]')).toHaveCount(1);
    await expect(panel.getByTestId('purge-total')).toHaveText(/\d+(\.\d)? KB/);
    await panel.getByTestId('purge-open').click();
    await page.getByTestId('purge-dialog-confirm').click();
    await expect(page.getByTestId('purge-result')).toContainText('Removed');
    // The running host writes its (now empty) search index again at once: nothing else is left.
    await expect(panel.getByTestId('purge-items').locator('tr[data-kind="session"], tr[data-kind="archived"], tr[data-kind="receipts"], tr[data-kind="events"]')).toHaveCount(0);
    expect(existsSync(join(home.path, 'sessions', one))).toBe(false);
    expect(existsSync(join(home.path, 'archived', two))).toBe(false);
    const after = JSON.parse((await runBaton(['purge', '--dry-run', '--json'], { home: home.path })).stdout) as { items: Array<{ kind: string; name: string }> };
    expect(after.items.filter((i) => i.name !== 'search-index.json')).toEqual([]);
  });

  test('a bundle exported on another machine and imported here opens in the running app (the built CLI)', async ({ page, home, work, launchHost }) => {
    const other = join(work.path, 'other-machine');
    const id = await saveSession(other, work.path, 'Carried on a USB stick');
    const file = join(work.path, 'carried.baton');
    const exported = await runBaton(['export', id, '--out', file, '--json'], { home: other });
    expect(exported.code, exported.stderr).toBe(0);
    const host = await launchHost();
    await page.goto(host.url);
    const refused = await runBaton(['import', file, '--json'], { home: home.path });
    expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, code: 'UNVERIFIED_ORIGIN' });
    const imported = await runBaton(['import', file, '--trust', '--json'], { home: home.path });
    expect(JSON.parse(imported.stdout), imported.stderr).toMatchObject({ ok: true, status: 'accepted', sessionId: id });
    // The running host received the offer: its UI opens the session.
    await expect(page.getByTestId('session-title')).toHaveText('Carried on a USB stick');
    await expect(new SessionsPage(page).session(id)).toBeVisible();
  });
});
