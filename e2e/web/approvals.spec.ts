import { expect, test } from '../support/fixtures.js';
import { join } from 'node:path';
import { parseHookOutput, runApproveHook, type PreToolUseInput } from '../support/approve-hook.js';
import { ApprovalsPage } from '../pages/approvals-page.js';

const SESSION = '5d0c9a7e-3b1f-4c2d-9e8a-7f6b5a4c3d2e';

function hookInput(cwd: string, toolUseId: string, command: string): PreToolUseInput {
  return {
    session_id: SESSION,
    transcript_path: join(cwd, '.claude-transcript.jsonl'),
    cwd,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: toolUseId,
  };
}

test.describe('Claude Code PreToolUse hook → Baton approvals', () => {
  test('approve in the UI → allow; deny → deny; no host → ask', async ({ page, home, work, launchHost }) => {
    const host = await launchHost();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(host.url);
    const approvals = new ApprovalsPage(page);
    await expect(approvals.badge()).toHaveText('0');

    // 1. The hook waits in the background; the request shows in the UI; Approve → allow.
    const first = runApproveHook(home.path, hookInput(work.path, 'toolu_01A', 'npm test'));
    await expect(approvals.badge()).toHaveText('1');
    await expect(page.getByTestId('approval-toast')).toContainText('npm test');
    await approvals.open();
    await expect(approvals.items()).toHaveCount(1);
    await expect(approvals.detail()).toContainText('Bash');
    await expect(approvals.detail().getByTestId('approval-subject')).toContainText('npm test');
    await expect(approvals.detail()).toContainText(work.path);
    await expect(approvals.detail().getByTestId('approval-countdown')).toContainText('left');
    await page.screenshot({ path: join('test-results', 'screens', 'approvals-queue.png') });
    await approvals.approve();
    const allowed = await first;
    expect(allowed.code, allowed.stderr).toBe(0);
    const allow = parseHookOutput(allowed).hookSpecificOutput;
    expect(allow.hookEventName).toBe('PreToolUse');
    expect(allow.permissionDecision).toBe('allow');
    expect(allow.permissionDecisionReason).toContain('Approved in Baton');
    await expect(approvals.badge()).toHaveText('0');
    await expect(page.getByTestId('approval-notice')).toContainText('Approved: npm test');

    // 2. A second request, denied with a reason → deny, and the reason reaches the agent.
    const second = runApproveHook(home.path, hookInput(work.path, 'toolu_01B', 'npm publish'));
    await expect(approvals.items()).toHaveCount(1);
    await expect(approvals.detail().getByTestId('approval-subject')).toContainText('npm publish');
    await approvals.deny('not from this branch');
    const denied = await second;
    expect(denied.code, denied.stderr).toBe(0);
    const deny = parseHookOutput(denied).hookSpecificOutput;
    expect(deny.permissionDecision).toBe('deny');
    expect(deny.permissionDecisionReason).toContain('not from this branch');
    await expect(page.getByTestId('approvals-empty')).toBeVisible();

    // 3. High risk: Approve needs the dialog's distinct button; only then is it allowed.
    const risky = runApproveHook(home.path, hookInput(work.path, 'toolu_01D', 'rm -rf /home/someone-else/project'));
    await expect(approvals.items()).toHaveCount(1);
    await expect(approvals.detail()).toHaveAttribute('data-risk', 'high');
    await approvals.approve();
    const dialog = page.getByTestId('high-risk-dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('rm -rf /home/someone-else/project');
    await page.screenshot({ path: join('test-results', 'screens', 'approvals-high-risk.png') });
    await dialog.getByTestId('confirm-high-risk').click();
    const riskyRun = await risky;
    expect(parseHookOutput(riskyRun).hookSpecificOutput.permissionDecision).toBe('allow');

    // 4. No host running: the hook answers `ask` at once, so Claude Code's own prompt takes over.
    await host.stop();
    const started = Date.now();
    const offline = await runApproveHook(home.path, hookInput(work.path, 'toolu_01C', 'npm test'));
    expect(offline.code, offline.stderr).toBe(0);
    expect(parseHookOutput(offline).hookSpecificOutput.permissionDecision).toBe('ask');
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
