import { expect, test } from '../support/fixtures.js';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runBaton, writeConversation } from '../support/cli.js';
import { SessionsPage } from '../pages/sessions-page.js';
import { UnlockPage } from '../pages/unlock-page.js';

/**
 * A passphrase store (issue 17) opened from the UI: the host starts locked (`baton serve` without a
 * terminal; the desktop app always), the unlock screen refuses a wrong passphrase, the right one
 * opens the store and the CLI gets the key from the host; Lock drops it and the CLI exits 6. The
 * passphrase is found nowhere: not on disk, not in the host's output, not in the page after submit.
 */
const PASSPHRASE = 'unlock-e2e passphrase QUOKKA-8812';
const MARKER = 'NUMBAT-3390-MARKER';

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

test('locked screen, wrong passphrase, right passphrase, sessions and the CLI; Lock refuses the CLI (exit 6)', async ({ page, home, work, launchHost }) => {
  const enable = await runBaton(['encrypt', '--enable', '--passphrase', '--json'], { home: home.path, input: `${PASSPHRASE}\n` });
  expect(enable.code, enable.stderr).toBe(0);

  const host = await launchHost();
  await page.goto(host.url);
  const unlock = new UnlockPage(page);
  await expect(unlock.screen()).toBeVisible();
  await expect(page.getByTestId('session-group')).toHaveCount(0);
  // Locked: the CLI is refused before it writes anything.
  const lockedList = await runBaton(['list', '--json', '--no-agents'], { home: home.path });
  expect(lockedList.code, lockedList.stderr).toBe(6);
  expect(lockedList.stdout + lockedList.stderr).toMatch(/locked.*Unlock it/s);

  await unlock.unlockWith('not the passphrase at all');
  await expect(unlock.error()).toContainText('Wrong passphrase');
  await expect(unlock.field()).toHaveValue('');
  await expect(unlock.screen()).toBeVisible();
  await page.screenshot({ path: join('test-results', 'screens', 'unlock-wrong-passphrase.png') });

  await unlock.unlockWith(PASSPHRASE);
  await expect(unlock.screen()).toHaveCount(0);
  await expect(unlock.lockButton()).toBeVisible();
  expect(await page.content()).not.toContain(PASSPHRASE);
  expect(page.url()).not.toContain('QUOKKA');

  // Unlocked: a handoff lands through the host's key and shows up; `baton list` works.
  const file = await writeConversation(work.path, 'marker.jsonl', [
    { role: 'user', content: `Remember ${MARKER}` },
    { role: 'assistant', content: `Noted: ${MARKER}` },
  ]);
  const handoff = await runBaton(['handoff', '--cwd', work.path, '--title', `Title ${MARKER}`, '--messages', file, '--no-launch', '--json'], { home: home.path });
  expect(handoff.code, handoff.stderr).toBe(0);
  const { sessionId } = JSON.parse(handoff.stdout) as { sessionId: string };
  const sessions = new SessionsPage(page);
  await expect(sessions.session(sessionId)).toHaveCount(1);
  await sessions.open(sessionId);
  await expect(sessions.messages().first()).toContainText(MARKER);
  const list = await runBaton(['list', '--json', '--no-agents'], { home: home.path });
  expect(list.code, list.stderr).toBe(0);
  expect(list.stdout).toContain(sessionId);

  // Lock: the unlock screen again, and the CLI is refused (exit 6).
  await unlock.lockButton().click();
  await expect(unlock.screen()).toBeVisible();
  await expect(sessions.session(sessionId)).toHaveCount(0);
  const after = await runBaton(['list', '--json', '--no-agents'], { home: home.path });
  expect(after.code, after.stderr).toBe(6);

  // The passphrase (and the marker) are nowhere under the data directory, nor in the host's output.
  const secret = Buffer.from(PASSPHRASE);
  for (const path of await filesUnder(home.path)) {
    const bytes = await readFile(path);
    expect(bytes.includes(secret), path).toBe(false);
    expect(bytes.includes(Buffer.from(MARKER)), path).toBe(false);
  }
  if (host.output) expect(host.output()).not.toContain(PASSPHRASE);
  expect(await page.content()).not.toContain(PASSPHRASE);
});
