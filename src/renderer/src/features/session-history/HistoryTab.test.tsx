// @vitest-environment happy-dom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalView } from '../../../../shared/approvals';
import { MemoryBridge, okResult } from '../../test-support/memory-bridge';
import { renderWithApi, SHA_A, SHA_B } from '../workspace/test-kit';
import { decisionLabel, summarizeInput, INPUT_SUMMARY_MAX } from './approval-summary';
import { HistoryTab } from './HistoryTab';
import { readRehydrationLog } from './rehydration-log';

afterEach(cleanup);

function approval(id: string, overrides: { decision?: ApprovalView['decision']; input?: Record<string, unknown>; level?: 'low' | 'medium' | 'high'; createdAt?: string } = {}): ApprovalView {
  return {
    request: {
      type: 'request',
      schemaVersion: 1,
      requestId: id,
      sessionId: 's1',
      tool: 'Bash',
      input: overrides.input ?? { command: 'npm test' },
      cwd: '/home/dev/api',
      workspaceRoot: '/home/dev/api',
      risk: { level: overrides.level ?? 'low', reasons: [] },
      createdAt: overrides.createdAt ?? '2026-11-29T09:00:00.000Z',
      expiresAt: '2026-11-29T09:10:00.000Z',
    },
    decision: overrides.decision === undefined ? null : overrides.decision,
  };
}

const decided = (id: string, decision: 'approve' | 'deny', by: 'user' | 'timeout' | 'grant', at: string, reason: string | null = null) => ({
  type: 'decision' as const,
  requestId: id,
  sessionId: 's1',
  decision,
  by,
  reason,
  confirmedHighRisk: false,
  grantId: null,
  decidedAt: at,
});

describe('HistoryTab', () => {
  it('lists approvals newest first with decision, who, when and why, and the rehydration log', async () => {
    const bridge = new MemoryBridge().handle('approvals:history', () =>
      okResult([
        approval('r1', { decision: decided('r1', 'approve', 'user', '2026-11-29T09:01:00.000Z') }),
        approval('r2', { input: { command: 'rm -rf build' }, level: 'high', decision: decided('r2', 'deny', 'user', '2026-11-29T09:05:00.000Z', 'Not outside the repo') }),
        approval('r3', { input: { file_path: 'src/a.ts' }, decision: decided('r3', 'deny', 'timeout', '2026-11-29T09:03:00.000Z') }),
        approval('r4', { createdAt: '2026-11-29T09:06:00.000Z' }),
      ]),
    );
    const log = [
      { type: 'workspace.rehydrate', at: '2026-11-29T10:00:00.000Z', step: 'take-file', result: 'applied', path: 'src/a.ts', previousSha256: SHA_B, expectedSha256: SHA_A, backupRef: 'artifacts/abc' },
      { type: 'workspace.rehydrate', at: '2026-11-29T11:00:00.000Z', step: 'take-file', result: 'unchanged', path: 'src/a.ts' },
      { type: 'something-else' },
    ];
    renderWithApi(<HistoryTab sessionId="s1" rehydrationLog={log} />, bridge);
    const rows = await screen.findAllByTestId('history-approval');
    expect(rows.map((row) => row.getAttribute('data-outcome'))).toEqual(['pending', 'denied', 'denied', 'approved']);
    expect(rows[0]!.textContent).toContain('Waiting for a decision');
    expect(rows[1]!.textContent).toContain('Denied by you');
    expect(rows[1]!.textContent).toContain('rm -rf build');
    expect(rows[1]!.textContent).toContain('“Not outside the repo”');
    expect(rows[1]!.textContent).toContain('high risk');
    expect(rows[2]!.textContent).toContain('Denied · timed out');
    expect(rows[2]!.textContent).toContain('src/a.ts');
    expect(rows[3]!.textContent).toContain('Approved by you');

    const steps = screen.getAllByTestId('history-rehydration');
    expect(steps.map((step) => step.getAttribute('data-result'))).toEqual(['unchanged', 'applied']);
    expect(steps[1]!.textContent).toContain('took the handed-off version of src/a.ts');
    expect(steps[1]!.textContent).toContain('was bbbbbbbbbb → aaaaaaaaaa');
    expect(steps[1]!.textContent).toContain('artifacts/abc');
    expect(screen.getByText(/1 entry of the log could not be read/)).toBeTruthy();
  });

  it('says when nothing happened yet, and refreshes on approvals:changed for this session only', async () => {
    let answer: ApprovalView[] = [];
    const bridge = new MemoryBridge().handle('approvals:history', () => okResult(answer));
    renderWithApi(<HistoryTab sessionId="s1" rehydrationLog={undefined} />, bridge);
    expect(await screen.findByText('No tool asked for approval in this session.')).toBeTruthy();
    expect(screen.getByText(/Baton never changes your files without asking/)).toBeTruthy();
    answer = [approval('r9')];
    await act(async () => bridge.emit('approvals:changed', { sessionId: 'other', type: 'request' }));
    expect(bridge.callsTo('approvals:history')).toBe(1);
    await act(async () => bridge.emit('approvals:changed', { sessionId: 's1', requestId: 'r9', type: 'request' }));
    await waitFor(() => expect(screen.getAllByTestId('history-approval')).toHaveLength(1));
  });
});

describe('history helpers', () => {
  it('reads a log that is not an array as empty', () => {
    expect(readRehydrationLog(undefined)).toEqual({ entries: [], unreadable: 0 });
    expect(readRehydrationLog({ not: 'a list' })).toEqual({ entries: [], unreadable: 0 });
  });

  it('summarises a tool input in one short line', () => {
    expect(summarizeInput({ command: 'git status\n  --short' })).toBe('git status --short');
    expect(summarizeInput({ cmd: ['ls', '-la'] })).toBe('ls -la');
    expect(summarizeInput({ other: 1 })).toBe('{"other":1}');
    expect(summarizeInput({ command: 'x'.repeat(500) })).toHaveLength(INPUT_SUMMARY_MAX);
  });

  it('labels who decided', () => {
    expect(decisionLabel(approval('a', { decision: decided('a', 'approve', 'grant', '2026-11-29T09:00:00.000Z') }))).toBe('Approved by a session grant');
  });
});
