import { expect, test } from '../support/fixtures.js';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runBaton } from '../support/cli.js';
import { SessionsPage } from '../pages/sessions-page.js';

/** Context transfer through the real CLI and `baton serve`, seen in real Chromium. */
test.describe('context transfer', () => {
  test('a large tool output arrives trimmed, "Show full output" brings all of it, and the stats panel measures the session after resumption', async ({ page, home, work, launchHost }, testInfo) => {
    const host = await launchHost();
    const output = Array.from({ length: 3_000 }, (_, i) => (i === 1_500 ? 'FAIL src/date-picker.test.ts > keeps the zone' : `✓ case ${i} passes`)).join('\n');
    const file = join(work.path, 'big.jsonl');
    const messages = [
      { role: 'user', content: 'Fix the flaky date picker test; we must not change the public API.' },
      { role: 'assistant', content: 'Running the suite.', toolCalls: [{ id: 'c1', name: 'Bash', input: { command: 'npm test' }, output, exitCode: 1 }] },
      { role: 'assistant', content: 'One failure: the zone. Should I pin TZ=UTC?' },
    ];
    await writeFile(file, messages.map((m) => JSON.stringify(m)).join('\n') + '\n');
    const run = await runBaton(['handoff', '--cwd', work.path, '--title', 'Large output', '--messages', file, '--json'], { home: home.path });
    expect(run.code, run.stderr).toBe(0);
    const { sessionId, answer } = JSON.parse(run.stdout) as { sessionId: string; answer: { status: string } };
    expect(answer.status).toBe('accepted');

    await page.goto(host.url);
    const sessions = new SessionsPage(page);
    await sessions.open(sessionId);
    const call = page.getByTestId('tool-call').first();
    await call.locator('summary').click();
    const full = call.getByTestId('full-output');
    await expect(full).toContainText('[trimmed by Baton: 3000 lines');
    await expect(full).toContainText('1501│ FAIL src/date-picker.test.ts > keeps the zone');
    await expect(full).not.toContainText('✓ case 1200 passes');
    await full.getByTestId('show-full-output').click();
    await expect(full.getByText('Show trimmed output')).toBeVisible();
    await full.getByText(/Show all \(3,?000 lines/).click();
    await expect(full).toContainText('✓ case 1200 passes');
    await page.screenshot({ path: testInfo.outputPath('full-output.png'), fullPage: true });

    // The terminal takes it back: the span after the handoff ends with the resume.
    const resume = await runBaton(['resume', sessionId, '--json'], { home: home.path });
    expect(resume.code, resume.stderr).toBe(0);
    await page.getByTestId('open-stats').click();
    await expect(page.getByTestId('resumed-p50')).toContainText('over 1 accepted handoff');
    await expect(page.getByTestId('resumed-ends')).toContainText('0 ended by a handoff, 1 by a resume');
    await page.screenshot({ path: testInfo.outputPath('stats.png'), fullPage: true });
  });

  test('a summary changed on disk after the manifest was built: the CLI is refused and the open window shows an alert', async ({ page, home, work, launchHost }, testInfo) => {
    const host = await launchHost();
    await page.goto(host.url);
    const file = join(work.path, 'small.jsonl');
    await writeFile(file, [{ role: 'user', content: 'Rename the config loader' }, { role: 'assistant', content: 'Done. Should I update the docs too?' }].map((m) => JSON.stringify(m)).join('\n') + '\n');
    // A dry run lands the session and records its manifest (and summary) without offering it.
    const dry = await runBaton(['handoff', '--cwd', work.path, '--title', 'Tampered', '--messages', file, '--dry-run', '--json'], { home: home.path });
    expect(dry.code, dry.stderr).toBe(0);
    const { sessionId } = JSON.parse(dry.stdout) as { sessionId: string };
    const summary = join(home.path, 'sessions', sessionId, 'artifacts', 'summary-01.md');
    await chmod(summary, 0o600);
    await writeFile(summary, '# edited by hand\n');

    const offer = await runBaton(['handoff', '--session', sessionId, '--json'], { home: home.path });
    expect(offer.code).toBe(5);
    expect(JSON.parse(offer.stdout)).toMatchObject({ category: 'rejected', answer: { code: 'VERIFY_MISMATCH' } });
    const alert = page.getByTestId('handoff-alert');
    await expect(alert).toContainText('was refused');
    await expect(alert).toContainText('context.compacted_summary_sha256');
    await page.screenshot({ path: testInfo.outputPath('alert.png') });
    const stats = await runBaton(['stats'], { home: home.path });
    expect(stats.stdout).toContain('1 offer refused at this host: the files on disk differed from the manifest');
    await alert.getByText('Dismiss').click();
    await expect(page.getByTestId('handoff-alert')).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('session-total')).toBeVisible();
    await expect(page.getByTestId('handoff-alert')).toHaveCount(0);
  });
});
