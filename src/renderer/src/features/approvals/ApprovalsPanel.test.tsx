// @vitest-environment happy-dom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errResult, okResult } from '../../test-support/memory-bridge';
import { approvalView } from './approval-fixture';
import { decidesOf, openApprovals, renderApprovalsHost } from './test-support/approvals-host';
import type { ApprovalView } from './use-approvals';
import { appTestApis } from '../../test-support/app-apis';

const { apis } = appTestApis();

const HIGH: ApprovalView['request']['risk'] = {
  level: 'high',
  reasons: [{ rule: 'recursive-delete-outside-workspace', message: 'Deletes files recursively outside the workspace', level: 'high' }],
};

const host = (pending: ApprovalView[]) => renderApprovalsHost(pending, apis);
const openPanel = openApprovals;
const decides = decidesOf;

describe('approvals', () => {
  it('the badge counts pending requests and follows approvals:changed', async () => {
    const pending = [approvalView('r1')];
    const bridge = host(pending);
    await waitFor(() => expect(screen.getByTestId('approvals-badge').textContent).toBe('1'));
    pending.push(approvalView('r2', { input: { command: 'rm -rf build' } }));
    act(() => bridge.emit('approvals:changed', { sessionId: 's1', requestId: 'r2', type: 'request' }));
    await waitFor(() => expect(screen.getByTestId('approvals-badge').textContent).toBe('2'));
    expect(document.title).toBe('(2) Baton');
    // Not granted (happy-dom has no Notification): a toast announces the new one, never a permission prompt.
    const toast = await screen.findByTestId('approval-toast');
    expect(toast.textContent).toContain('rm -rf build');
    fireEvent.click(within(toast).getByRole('button', { name: 'Review' }));
    expect(await screen.findByTestId('approvals-panel')).toBeTruthy();
  });

  it('the queue is oldest first; the detail shows tool, command, cwd, risk reasons and time left', async () => {
    host([approvalView('r1', { risk: { level: 'medium', reasons: [{ rule: 'network', message: 'Reaches the network', level: 'medium' }] } }), approvalView('r2')]);
    await openPanel();
    expect(screen.getAllByTestId('approval-item').map((el) => el.getAttribute('data-request-id'))).toEqual(['r1', 'r2']);
    const detail = screen.getByTestId('approval-detail');
    expect(detail.getAttribute('data-request-id')).toBe('r1');
    expect(within(detail).getByTestId('approval-subject').textContent).toContain('npm test');
    expect(detail.textContent).toContain('/home/dev/api');
    expect(within(detail).getByTestId('approval-risk').textContent).toBe('medium risk');
    expect(within(detail).getByTestId('risk-reasons').textContent).toContain('Reaches the network');
    expect(within(detail).getByTestId('approval-countdown').textContent).toMatch(/^[45]:\d\d left$/);
  });

  it('file writes show their change as a diff', async () => {
    host([approvalView('r1', { tool: 'Edit', input: { file_path: '/home/dev/api/a.ts', old_string: 'const a = 1;\nkeep();', new_string: 'const a = 2;\nkeep();' } })]);
    await openPanel();
    const diff = screen.getByTestId('approval-diff');
    expect(diff.textContent).toContain('/home/dev/api/a.ts');
    expect([...diff.querySelectorAll('[data-op]')].map((el) => el.getAttribute('data-op'))).toEqual(['-', '+', ' ']);
  });

  it('Approve sends the decision with the typed reason; Deny and Allow for this session too', async () => {
    const bridge = host([approvalView('r1'), approvalView('r2'), approvalView('r3')]);
    await openPanel();
    fireEvent.change(screen.getByTestId('approval-reason'), { target: { value: 'tests only' } });
    fireEvent.click(screen.getByTestId('approve'));
    await waitFor(() => expect(screen.getByTestId('approval-notice').textContent).toBe('Approved: npm test'));
    await waitFor(() => expect(screen.getByTestId('approval-detail').getAttribute('data-request-id')).toBe('r2'));
    fireEvent.click(screen.getByTestId('allow-session'));
    await waitFor(() => expect(screen.getByTestId('approval-detail').getAttribute('data-request-id')).toBe('r3'));
    fireEvent.click(screen.getByTestId('deny'));
    await screen.findByTestId('approvals-empty');
    expect(decides(bridge)).toEqual([
      { requestId: 'r1', decision: 'approve', reason: 'tests only' },
      { requestId: 'r2', decision: 'approve', allowForSession: true, expectedRule: 'Bash(npm test)' },
      { requestId: 'r3', decision: 'deny' },
    ]);
  });

  it('high risk: Approve opens a dialog naming the risk; only its distinct button approves, with confirmHighRisk', async () => {
    const bridge = host([approvalView('r1', { input: { command: 'rm -rf /home/dev/other' }, risk: HIGH })]);
    await openPanel();
    fireEvent.click(screen.getByTestId('approve'));
    const dialog = await screen.findByTestId('high-risk-dialog');
    expect(dialog.getAttribute('role')).toBe('alertdialog');
    expect(dialog.textContent).toContain('Deletes files recursively outside the workspace');
    expect(dialog.textContent).toContain('rm -rf /home/dev/other');
    expect(document.activeElement).toBe(within(dialog).getByTestId('cancel-high-risk'));
    expect(decides(bridge)).toEqual([]);
    // Cancel sends nothing.
    fireEvent.click(within(dialog).getByTestId('cancel-high-risk'));
    expect(screen.queryByTestId('high-risk-dialog')).toBeNull();
    expect(decides(bridge)).toEqual([]);
    // The keyboard path goes through the same dialog.
    fireEvent.keyDown(screen.getByTestId('approval-queue'), { key: 'a' });
    const again = await screen.findByTestId('high-risk-dialog');
    expect(within(again).getByTestId('confirm-high-risk').textContent).toBe('Yes, approve this high-risk action');
    fireEvent.click(within(again).getByTestId('confirm-high-risk'));
    await waitFor(() => expect(decides(bridge)).toEqual([{ requestId: 'r1', decision: 'approve', confirmHighRisk: true }]));
  });

  it('keyboard: j/k move, a approves, d denies, only while the queue has focus, never while typing', async () => {
    const bridge = host([approvalView('r1'), approvalView('r2'), approvalView('r3')]);
    await openPanel();
    const queue = screen.getByTestId('approval-queue');
    const chosen = () => screen.getByTestId('approval-detail').getAttribute('data-request-id');
    const reason = screen.getByTestId('approval-reason');
    // Typing "a" and "d" in the reason field is text.
    fireEvent.keyDown(reason, { key: 'a' });
    fireEvent.keyDown(reason, { key: 'd' });
    // Keys elsewhere in the window do nothing either.
    fireEvent.keyDown(document.body, { key: 'a' });
    expect(decides(bridge)).toEqual([]);
    fireEvent.keyDown(queue, { key: 'j' });
    expect(chosen()).toBe('r2');
    fireEvent.keyDown(queue, { key: 'j' });
    fireEvent.keyDown(queue, { key: 'j' });
    expect(chosen()).toBe('r3');
    fireEvent.keyDown(queue, { key: 'k' });
    expect(chosen()).toBe('r2');
    fireEvent.keyDown(queue, { key: 'd' });
    await waitFor(() => expect(decides(bridge)).toEqual([{ requestId: 'r2', decision: 'deny' }]));
    await waitFor(() => expect(screen.getAllByTestId('approval-item')).toHaveLength(2));
    fireEvent.keyDown(queue, { key: 'a', ctrlKey: true });
    expect(decides(bridge)).toHaveLength(1);
    fireEvent.keyDown(queue, { key: 'a' });
    await waitFor(() => expect(decides(bridge)).toHaveLength(2));
  });

  it('a late click (already decided by a timeout) is a message, and the queue refreshes', async () => {
    const pending = [approvalView('r1')];
    const bridge = host(pending);
    bridge.handle('approvals:decide', () => {
      pending.splice(0);
      return errResult('ALREADY_DECIDED', 'request r1 was already decided: deny by timeout');
    });
    await openPanel();
    fireEvent.click(screen.getByTestId('approve'));
    const notice = await screen.findByTestId('approval-notice');
    expect(notice.getAttribute('role')).toBe('alert');
    expect(notice.textContent).toContain('Too late');
    expect(notice.textContent).toContain('deny by timeout');
    await screen.findByTestId('approvals-empty');
    expect(screen.getByTestId('approvals-badge').textContent).toBe('0');
  });

  it('grants of the session: listed with Revoke', async () => {
    const grants = [{ id: 'g1', sessionId: 's1', rule: 'Bash(npm test)', requestId: 'r0', createdAt: new Date().toISOString() }];
    const bridge = host([approvalView('r1')]);
    bridge
      .handle('grants:list', () => okResult(grants))
      .handle('grants:revoke', (payload) => {
        grants.splice(0);
        return okResult({ revoked: true, ...(payload as object) });
      });
    await openPanel();
    const list = await screen.findByTestId('grants');
    expect((await within(list).findByTestId('grant')).textContent).toContain('Bash(npm test)');
    fireEvent.click(within(list).getByRole('button', { name: /^Revoke/ }));
    await waitFor(() => expect(within(list).queryByTestId('grant')).toBeNull());
    expect(bridge.calls.find((c) => c.channel === 'grants:revoke')?.payload).toEqual({ sessionId: 's1', grantId: 'g1' });
  });
});
