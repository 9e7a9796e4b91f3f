import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runBaton } from '../support/cli.js';
import { SCREENS } from '../support/screens.js';

/** axe-core over every view the browser host shows, light and dark: no serious or critical violation. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.length} node(s), e.g. ${v.nodes[0]?.target.join(' ')} — ${v.nodes[0]?.failureSummary?.split('\n')[1]?.trim() ?? ''}`);
}

const CONVERSATION = [
  { role: 'user', content: 'Why does the date picker test fail?' },
  { role: 'assistant', content: 'Running it.', toolCalls: [{ id: 'c1', name: 'Bash', input: { command: 'npm test' } }] },
  { role: 'tool', toolCallId: 'c1', content: 'FAIL src/date-picker.test.ts', exitCode: 1 },
  { role: 'assistant', content: '## Root cause\n\nThe **zone**.\n\n```ts\nprocess.env.TZ = "UTC";\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |' },
];

for (const scheme of ['light', 'dark'] as const) {
  test(`axe: every view in the ${scheme} scheme has no serious or critical violation`, async ({ page, home, work, launchHost }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: scheme });
    const host = await launchHost();
    const report: Record<string, string[]> = {};

    await page.goto(host.url);
    await expect(page.getByTestId('no-selection').or(page.getByTestId('empty-state'))).toBeVisible();
    report['empty state'] = await seriousViolations(page);

    const file = join(work.path, 'a11y.jsonl');
    await writeFile(file, CONVERSATION.map((m) => JSON.stringify(m)).join('\n') + '\n');
    const run = await runBaton(['handoff', '--cwd', work.path, '--title', 'Date picker zone', '--messages', file, '--json'], { home: home.path });
    expect(run.code, run.stderr).toBe(0);
    const { sessionId } = JSON.parse(run.stdout) as { sessionId: string };
    await page.goto(host.url);
    await expect(page.getByTestId('session-item').first()).toBeVisible();
    report.list = await seriousViolations(page);

    await page.goto(`${host.url}#session=${sessionId}`);
    await expect(page.locator('pre > code[data-highlighted]').last()).toBeVisible();
    await page.getByTestId('tool-call').locator('summary').click();
    report.session = await seriousViolations(page);
    await page.screenshot({ path: join(SCREENS, `a11y-session-${scheme}.png`), fullPage: true });

    await page.getByRole('tab', { name: 'Changes' }).click();
    await expect(page.getByTestId('panel-changes')).toBeVisible();
    await page.waitForTimeout(500);
    report.changes = await seriousViolations(page);
    await page.getByRole('tab', { name: 'History' }).click();
    await expect(page.getByTestId('panel-history')).toBeVisible();
    await page.waitForTimeout(500);
    report.history = await seriousViolations(page);

    for (const [name, button] of [['approvals', 'open-approvals'], ['tasks', 'open-tasks'], ['stats', 'open-stats'], ['search', 'open-search']] as const) {
      await page.getByTestId(button).click();
      await page.waitForTimeout(500);
      report[name] = await seriousViolations(page);
      await page.getByTestId(button).click();
    }
    console.log(`axe ${scheme}: ${Object.entries(report).map(([view, v]) => `${view} ${v.length}`).join(', ')}`);
    expect(report).toEqual(Object.fromEntries(Object.keys(report).map((view) => [view, []])));
  });
}
