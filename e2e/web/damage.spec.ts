import { expect, test } from '../support/fixtures.js';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runBaton, writeConversation } from '../support/cli.js';
import { SessionsPage } from '../pages/sessions-page.js';

test.describe('damage in the middle of a session log', () => {
  test('show, the UI and doctor all say it, naming the side file; nothing is cut', async ({ page, home, work, launchHost }) => {
    const file = await writeConversation(
      work.path,
      'forty.jsonl',
      Array.from({ length: 40 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `message number ${i}` })),
    );
    const saved = await runBaton(['handoff', '--cwd', work.path, '--title', 'Forty messages', '--messages', file, '--dry-run', '--json'], { home: home.path });
    expect(saved.code, saved.stderr).toBe(0);
    const { sessionId } = JSON.parse(saved.stdout) as { sessionId: string };
    const log = join(home.path, 'sessions', sessionId, 'messages.jsonl');
    const lines = (await readFile(log, 'utf8')).split('\n');
    const start = Buffer.byteLength(lines.slice(0, 19).map((l) => `${l}\n`).join(''));
    lines[19] = lines[19]!.replace('message number 19', 'message number XX');
    const end = start + Buffer.byteLength(lines[19]!) + 1;
    await writeFile(log, lines.join('\n'));
    const sideFile = `messages.damaged-${start}-${end}.bin`;

    const host = await launchHost();
    await page.goto(host.url);
    const sessions = new SessionsPage(page);
    await sessions.open(sessionId);
    await expect(sessions.messages()).toHaveCount(39);
    const banner = page.getByTestId('damage-banner');
    await expect(banner).toBeVisible();
    await expect(banner).toContainText(sideFile);
    await expect(banner).toContainText(`bytes ${start}–${end}`);

    const shown = await runBaton(['show', sessionId], { home: home.path });
    expect(shown.stdout).toContain(`kept in ${join(home.path, 'sessions', sessionId, sideFile)}`);
    const doctor = JSON.parse((await runBaton(['doctor', '--json'], { home: home.path })).stdout) as { damagedSessions: Array<{ id: string }> };
    expect(doctor.damagedSessions.map((d) => d.id)).toEqual([sessionId]);
    expect((await readFile(log, 'utf8')).split('\n')).toHaveLength(lines.length);
  });
});
