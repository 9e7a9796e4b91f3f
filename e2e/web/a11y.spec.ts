import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeClaudeSession } from '../support/agent-logs.js';
import { parseHookOutput, preToolUse, runApproveHook } from '../support/approve-hook.js';
import { runBaton } from '../support/cli.js';
import { makeRepo, writeRepoFile } from '../support/git-repo.js';
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
    // A Claude Code session on this machine (the candidate view) and a real repository with a change (Monaco's diff).
    const claudeId = '7e4f5a6b-7c8d-4e9f-8a0b-1c2d3e4f5a6b';
    await writeClaudeSession(home.path, { id: claudeId, cwd: work.path, branch: 'main', prompt: 'Why is the ledger off by a cent?', answer: '## Root cause\n\nRounding **twice**.', startedAt: '2026-11-29T09:00:00.000Z' });
    const repo = join(work.path, 'repo');
    await makeRepo(repo, { 'src/zone.ts': 'export const zone = "local";\n' });
    await writeRepoFile(repo, 'src/zone.ts', 'export const zone = "UTC";\n');
    const host = await launchHost({ HOME: home.path, CLAUDE_CONFIG_DIR: join(home.path, '.claude'), CODEX_HOME: join(home.path, '.codex') });
    const report: Record<string, string[]> = {};

    await page.goto(host.url);
    await expect(page.getByTestId('no-selection').or(page.getByTestId('empty-state'))).toBeVisible();
    report['empty state'] = await seriousViolations(page);

    const file = join(work.path, 'a11y.jsonl');
    await writeFile(file, CONVERSATION.map((m) => JSON.stringify(m)).join('\n') + '\n');
    const run = await runBaton(['handoff', '--cwd', repo, '--title', 'Date picker zone', '--messages', file, '--json'], { home: home.path });
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
    await page.getByTestId('diff-file').first().click();
    // Monaco's diff, with its hidden inputs, is in the page when axe looks. Its lazy chunk took
    // more than 10 s once on a loaded machine (load 13): the same allowance as workspace.spec.ts.
    await expect(page.locator('[data-testid="diff-editor"][data-state="ready"] .monaco-diff-editor')).toBeVisible({ timeout: 20_000 });
    report.changes = await seriousViolations(page);
    await page.getByRole('tab', { name: 'History' }).click();
    await expect(page.getByTestId('panel-history')).toBeVisible();
    await page.waitForTimeout(500);
    report.history = await seriousViolations(page);

    // A task with a port, a log and a pid (the tasks panel with its actions).
    const log = join(work.path, 'dev.log');
    await writeFile(log, 'ready on http://localhost:5173\n');
    const task = await runBaton(['task', 'register', '--id', 'vite-dev', '--kind', 'dev-server', '--command', 'npm run dev', '--pid', String(process.pid), '--port', '5173', '--log', log, '--session', sessionId, '--json'], { home: home.path });
    expect(task.code, task.stderr).toBe(0);

    for (const [name, button] of [['approvals', 'open-approvals'], ['tasks', 'open-tasks'], ['stats', 'open-stats'], ['search', 'open-search']] as const) {
      await page.getByTestId(button).click();
      await page.waitForTimeout(500);
      report[name] = await seriousViolations(page);
      await page.getByTestId(button).click();
    }
    // The high-risk approval dialog, over a real pending request from the Claude Code hook.
    const risky = runApproveHook(home.path, preToolUse('a11y-session', work.path, 'toolu_a11y', { command: 'rm -rf /home/someone-else/project' }));
    await page.getByTestId('open-approvals').click();
    await page.getByTestId('approve').click();
    await expect(page.getByTestId('high-risk-dialog')).toBeVisible();
    report['high-risk dialog'] = await seriousViolations(page);
    await page.getByTestId('cancel-high-risk').click();
    await page.getByTestId('deny').click();
    expect(parseHookOutput(await risky).hookSpecificOutput.permissionDecision).toBe('deny');
    await page.getByTestId('open-approvals').click();

    // A Claude Code session not in Baton: the candidate view with its read-only conversation.
    await page.goto(`${host.url}#session=claude:${claudeId}`);
    await expect(page.getByTestId('candidate-preview').getByTestId('message')).toHaveCount(2);
    report.candidate = await seriousViolations(page);

    console.log(`axe ${scheme}: ${Object.entries(report).map(([view, v]) => `${view} ${v.length}`).join(', ')}`);
    expect(report).toEqual(Object.fromEntries(Object.keys(report).map((view) => [view, []])));
  });
}
