// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errResult } from '../../test-support/memory-bridge';
import { selectionFromHash } from '../../hooks/use-selection';
import { row } from '../../test-support/fixtures';
import { approvalView } from './approval-fixture';
import { RiskReasons } from './RiskReasons';
import { claudeCandidate, decidesOf, openApprovals, renderApprovalsHost } from './test-support/approvals-host';
import type { ApprovalView } from './use-approvals';
import { appTestApis } from '../../test-support/app-apis';

/** Issue #10, found in a real browser: each fix, checked the way a person meets it. */
const { apis } = appTestApis();

const CLAUDE_ID = '5d0c9a7e-3b1f-4c2d-9e8a-7f6b5a4c3d2e';
const reasonTexts = () => screen.queryAllByTestId('risk-reason').map((el) => el.textContent);
const chosenId = () => screen.getByTestId('approval-detail').getAttribute('data-request-id');

describe('approvals pane fixes', () => {
  it('reasons: two reasons with the same rule both show, and switching requests never shows another request\'s reasons', async () => {
    const outside = (path: string) => ({ rule: 'write-outside-workspace', message: `Writes ${path}, outside the workspace`, level: 'high' as const });
    const network = (message: string) => ({ rule: 'network', message, level: 'medium' as const });
    // Rule-only keys broke exactly here: React's keyed map kept one of the two same-rule rows and left the other on screen.
    renderApprovalsHost(
      [
        approvalView('r1', { risk: { level: 'high', reasons: [network('Reaches the network'), outside('/etc/hosts'), outside('/etc/passwd')] } }),
        approvalView('r2', { risk: { level: 'high', reasons: [outside('/home/dev/.ssh/config'), network('Downloads a script')] } }),
      ],
      apis,
    );
    await openApprovals();
    const queue = screen.getByTestId('approval-queue');
    const r1 = ['medium Reaches the network', 'high Writes /etc/hosts, outside the workspace', 'high Writes /etc/passwd, outside the workspace'];
    expect(reasonTexts()).toEqual(r1);
    fireEvent.keyDown(queue, { key: 'j' });
    expect(chosenId()).toBe('r2');
    expect(reasonTexts()).toEqual(['high Writes /home/dev/.ssh/config, outside the workspace', 'medium Downloads a script']);
    fireEvent.click(screen.getAllByTestId('approval-item')[0]!);
    expect(reasonTexts()).toEqual(r1);
  });

  it('reasons: the list alone, fed one request after another, shows exactly the current reasons', () => {
    const a = [{ rule: 'network', message: 'N', level: 'medium' as const }, { rule: 'x', message: 'A', level: 'high' as const }, { rule: 'x', message: 'B', level: 'high' as const }];
    const b = [{ rule: 'x', message: 'C', level: 'high' as const }, { rule: 'network', message: 'M', level: 'medium' as const }];
    const { rerender } = render(<RiskReasons reasons={a} />);
    rerender(<RiskReasons reasons={b} />);
    expect(reasonTexts()).toEqual(['high C', 'medium M']);
  });

  it('focus: opening Approvals moves the focus into the queue, so j/k/a/d work at once', async () => {
    const bridge = renderApprovalsHost([approvalView('r1'), approvalView('r2', { input: { command: 'npm run lint' } })], apis);
    await waitFor(() => expect(screen.getByTestId('approvals-badge').textContent).toBe('2'));
    const button = screen.getByTestId('open-approvals');
    button.focus();
    fireEvent.click(button);
    const queue = await screen.findByTestId('approval-queue');
    await waitFor(() => expect(document.activeElement).toBe(queue));
    // The keys go where the focus is, as a browser sends them.
    fireEvent.keyDown(document.activeElement!, { key: 'j' });
    expect(chosenId()).toBe('r2');
    fireEvent.keyDown(document.activeElement!, { key: 'd' });
    await waitFor(() => expect(decidesOf(bridge)).toEqual([{ requestId: 'r2', decision: 'deny' }]));
  });

  it('focus: with an empty queue the pane itself has the focus; the first request to arrive takes it into the queue', async () => {
    const pending: ApprovalView[] = [];
    const bridge = renderApprovalsHost(pending, apis);
    const panel = await openApprovals();
    await waitFor(() => expect(document.activeElement).toBe(panel));
    pending.push(approvalView('r1'));
    act(() => bridge.emit('approvals:changed', { sessionId: 's1', requestId: 'r1', type: 'request' }));
    const queue = await screen.findByTestId('approval-queue');
    await waitFor(() => expect(document.activeElement).toBe(queue));
  });

  it('countdown: the queue and the detail say "left", never a bare time of day', async () => {
    renderApprovalsHost([approvalView('r1', { expiresAt: new Date(Date.now() + 9 * 60_000 + 36_400).toISOString() })], apis);
    await openApprovals();
    expect(screen.getByTestId('approval-item-left').textContent).toMatch(/^9:3[67] left$/);
    expect(screen.getByTestId('approval-countdown').textContent).toMatch(/^9:3[67] left$/);
  });

  it('session titles: a Baton session by its title, opened on click', async () => {
    renderApprovalsHost([approvalView('r1', { sessionId: 'sess-42' })], apis, { rows: [row({ id: 'sess-42', title: 'Refactor the billing module' })] });
    await openApprovals();
    await waitFor(() => expect(screen.getByTestId('approval-session').textContent).toBe('Refactor the billing module'));
    expect(screen.getByTestId('approval-item-session').textContent).toBe('Refactor the billing module');
    expect(screen.getByTestId('approval-detail').textContent).not.toContain('sess-42');
    fireEvent.click(screen.getByTestId('approval-session'));
    await waitFor(() => expect(screen.queryByTestId('approvals-panel')).toBeNull());
    expect(selectionFromHash(window.location.hash)).toBe('sess-42');
  });

  it('session link: a request filed under a Claude session id links to that session before "Open in Baton" (the candidate) and after (the imported session)', async () => {
    const before = [approvalView('r1', { sessionId: CLAUDE_ID })];
    renderApprovalsHost(before, apis, { candidates: [claudeCandidate(CLAUDE_ID, 'Fix the flaky login test')] });
    await openApprovals();
    await waitFor(() => expect(screen.getByTestId('approval-session').textContent).toBe('Fix the flaky login test'));
    fireEvent.click(screen.getByTestId('approval-session'));
    await waitFor(() => expect(selectionFromHash(window.location.hash)).toBe(`claude:${CLAUDE_ID}`));
    cleanup();
    window.history.replaceState(null, '', '/');

    // After import the host links the request to the Baton session that keeps CLAUDE_ID as its source.
    const imported = row({ id: 'imp-0123456789abcdef', title: 'Fix the flaky login test', source: 'claude' });
    const after = [approvalView('r1', { sessionId: CLAUDE_ID }, { link: { batonSessionId: imported.id, title: imported.title, source: 'claude' } })];
    renderApprovalsHost(after, apis, { rows: [imported] });
    await openApprovals();
    await waitFor(() => expect(screen.getByTestId('approval-session').textContent).toBe('Fix the flaky login test'));
    fireEvent.click(screen.getByTestId('approval-session'));
    await waitFor(() => expect(selectionFromHash(window.location.hash)).toBe(imported.id));
  });

  it('grant: the exact rule is shown before it is granted, and the rule shown is the one sent', async () => {
    const bridge = renderApprovalsHost([approvalView('r1', { input: { command: 'npm run build' } })], apis);
    await openApprovals();
    expect(screen.getByTestId('grant-preview').textContent).toContain('Bash(npm run build)');
    fireEvent.click(screen.getByTestId('allow-session'));
    await waitFor(() => expect(decidesOf(bridge)).toEqual([{ requestId: 'r1', decision: 'approve', allowForSession: true, expectedRule: 'Bash(npm run build)' }]));
  });

  it('grant refused: the pane says why and offers only approve once and deny', async () => {
    const reason = 'the Bash command is not a string, so no rule can match only it';
    const bridge = renderApprovalsHost([approvalView('r1', { input: { command: ['npm', 'test'] } }, { grant: { ok: false, reason } })], apis);
    await openApprovals();
    expect(screen.getByTestId('grant-refused').textContent).toContain(reason);
    expect(screen.queryByTestId('allow-session')).toBeNull();
    const buttons = within(screen.getByTestId('approval-detail')).getAllByRole('button').map((b) => b.getAttribute('data-testid'));
    expect(buttons.filter((id) => id === 'approve' || id === 'deny' || id === 'allow-session')).toEqual(['approve', 'deny']);
    fireEvent.click(screen.getByTestId('approve'));
    await waitFor(() => expect(decidesOf(bridge)).toEqual([{ requestId: 'r1', decision: 'approve' }]));
  });

  it('grants: reachable with an empty queue and no session open, grouped by session title, each revocable', async () => {
    const grants = [
      { id: 'g1', sessionId: 'sess-a', rule: 'Bash(npm test)', requestId: 'r0', createdAt: new Date().toISOString() },
      { id: 'g2', sessionId: CLAUDE_ID, rule: 'Bash(make lint)', requestId: 'r9', createdAt: new Date().toISOString(), link: { batonSessionId: 'imp-1', title: 'Imported from Claude', source: 'claude' } },
    ];
    const bridge = renderApprovalsHost([], apis, { rows: [row({ id: 'sess-a', title: 'Billing' })], grants });
    await openApprovals();
    expect(screen.getByTestId('approvals-empty')).toBeTruthy();
    const list = screen.getByTestId('grants');
    await waitFor(() => expect(within(list).getAllByTestId('grant')).toHaveLength(2));
    expect(within(list).getAllByTestId('grant-group').map((g) => g.querySelector('h3')?.textContent)).toEqual(['Billing', 'Imported from Claude']);
    fireEvent.click(within(list).getByRole('button', { name: 'Revoke Bash(make lint)' }));
    await waitFor(() => expect(within(list).getAllByTestId('grant')).toHaveLength(1));
    expect(bridge.calls.find((c) => c.channel === 'grants:revoke')?.payload).toEqual({ sessionId: CLAUDE_ID, grantId: 'g2' });
    expect(bridge.calls.find((c) => c.channel === 'grants:list')?.payload).toEqual({});
  });

  it('group: identical calls are counted for display, and deciding one leaves the others waiting', async () => {
    const bridge = renderApprovalsHost([approvalView('r1', { groupKey: 'grp-1' }), approvalView('r2', { groupKey: 'grp-1' }), approvalView('r3', { input: { command: 'ls' }, groupKey: 'grp-2' })], apis);
    await openApprovals();
    expect(screen.getAllByTestId('approval-item').map((el) => el.querySelector('[data-testid="approval-item-alike"]')?.textContent ?? '')).toEqual([' · asked 2×', ' · asked 2×', '']);
    fireEvent.click(screen.getByTestId('approve'));
    await waitFor(() => expect(screen.getAllByTestId('approval-item')).toHaveLength(2));
    expect(decidesOf(bridge)).toEqual([{ requestId: 'r1', decision: 'approve' }]);
    expect(screen.queryAllByTestId('approval-item-alike')).toHaveLength(0);
  });

  it('grant refused by the host (the rule changed since it was shown): a message, nothing decided, the request stays', async () => {
    const bridge = renderApprovalsHost([approvalView('r1')], apis);
    bridge.handle('approvals:decide', () => errResult('GRANT_REFUSED', 'request r1: the rule shown (Bash(npm test)) is not the rule the policy derives now (Bash(npm test:*)); nothing was granted, look again'));
    await openApprovals();
    fireEvent.click(screen.getByTestId('allow-session'));
    const notice = await screen.findByTestId('approval-notice');
    expect(notice.getAttribute('role')).toBe('alert');
    expect(notice.textContent).toContain('Not allowed for the session');
    expect(notice.textContent).toContain('nothing was granted');
    expect(screen.getAllByTestId('approval-item')).toHaveLength(1);
  });
});
