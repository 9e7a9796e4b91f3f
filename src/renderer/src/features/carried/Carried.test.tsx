// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CarriedTaskView } from '../../../../shared/carried-tasks';
import { MemoryBridge, okResult } from '../../test-support/memory-bridge';
import { renderWithApi } from '../workspace/test-kit';
import { CarriedModel } from './CarriedModel';
import { CarriedPermissions, groupRules } from './CarriedPermissions';
import { CarriedTasks } from './CarriedTasks';

afterEach(cleanup);

describe('CarriedPermissions', () => {
  it('shows the carried mode and rules, the source mode, what is in force here and the revoked grants', () => {
    renderWithApi(
      <CarriedPermissions
        permission={{
          mode: 'acceptEdits',
          rules: ['allow:Bash(npm test:*)', 'deny:Read(./.env)', 'root:/w/api', 'grant:Bash(make deploy)'],
          sourceTool: 'codex',
          sourceMode: 'on-request/workspace-write',
          sources: [{ kind: 'turn-context', path: '/r.jsonl:5', rules: 1 }],
          rulesSha256: 'c'.repeat(64),
          inForce: { mode: 'default', rules: ['allow:Bash(npm test:*)', 'deny:Read(./.env)', 'root:/w/api'], handoffId: 'h1', narrowedAt: '2026-11-30T00:00:00Z', revokedGrants: ['Bash(make deploy)'] },
        }}
      />,
      new MemoryBridge(),
    );
    expect(screen.getByTestId('carried-mode').textContent).toBe('acceptEdits');
    expect(screen.getByTestId('in-force-mode').textContent).toBe('default');
    expect(screen.getByTestId('carried-permissions').textContent).toContain('on-request/workspace-write');
    const carried = screen.getByTestId('carried-rules');
    expect(within(carried).getAllByTestId('rule-deny').map((e) => e.textContent)).toEqual(['Read(./.env)']);
    expect(within(carried).getAllByTestId('rule-grant').map((e) => e.textContent)).toEqual(['Bash(make deploy)']);
    expect(screen.getByTestId('in-force-rules')).toBeTruthy();
    expect(screen.getByTestId('revoked-grants').textContent).toContain('Bash(make deploy)');
  });

  it('renders nothing for a session without permission state; a bare rule counts as allow', () => {
    const { container } = renderWithApi(<CarriedPermissions permission={null} />, new MemoryBridge());
    expect(container.textContent).toBe('');
    expect(groupRules(['Bash', 'deny:Edit', 'weird:x'])).toEqual({ allow: ['Bash', 'weird:x'], deny: ['Edit'], root: [], grant: [] });
  });
});

describe('CarriedModel', () => {
  it('shows the carried model, its listed settings, the instruction files by path and hash, and the artifact hash', () => {
    renderWithApi(
      <CarriedModel
        model={{
          name: 'claude-opus-4-6',
          settings: { sourceTool: 'claude', model: 'claude-opus-4-6', clientVersion: '2.1.39', outputStyle: 'Explanatory', instructions: [{ ref: '/w/CLAUDE.md', sha256: 'a'.repeat(64), bytes: 10 }, { bad: true }], sources: [] },
          settingsSha256: 'b'.repeat(64),
        }}
      />,
      new MemoryBridge(),
    );
    expect(screen.getByTestId('carried-model-name').textContent).toBe('claude-opus-4-6');
    const section = screen.getByTestId('carried-model').textContent ?? '';
    expect(section).toContain('Explanatory');
    expect(section).toContain('2.1.39');
    expect(section).toContain('bbbbbbbbbbbb');
    expect(within(screen.getByTestId('carried-instructions')).getAllByRole('listitem').map((li) => li.textContent)).toEqual([`Instructions /w/CLAUDE.md ${'a'.repeat(12)}`]);
  });

  it('renders nothing without a model', () => {
    const { container } = renderWithApi(<CarriedModel model={null} />, new MemoryBridge());
    expect(container.textContent).toBe('');
  });
});

const task = (id: string, shownState: CarriedTaskView['shownState'], extra: Partial<CarriedTaskView> = {}): CarriedTaskView => ({
  task: { id, kind: 'dev-server', command: `run ${id}`, pid: 42, port: 5173, state: 'running', origin: 'baton' },
  shownState,
  processAlive: shownState === 'running',
  canTerminate: shownState === 'running',
  recommendation: { actions: shownState === 'running' ? ['terminate', 'restart'] : ['restart'], prompt: 'p', restartCommand: `cd /w && run ${id}` },
  ...extra,
});

describe('CarriedTasks', () => {
  it('lists every task with its shown state and recommendation; terminate asks first, then reloads on tasks:changed', async () => {
    let tasks = [task('dev', 'running'), task('gone', 'stale'), task('shell', 'unverified', { canTerminate: false, processAlive: null })];
    const bridge = new MemoryBridge()
      .handle('tasks:carried', () => okResult(tasks))
      .handle('tasks:terminate', () => {
        tasks = [task('dev', 'failed', { canTerminate: false, recommendation: { actions: ['keep'], prompt: 'It is failed.', restartCommand: null } }), tasks[1]!, tasks[2]!];
        return okResult({});
      });
    renderWithApi(<CarriedTasks sessionId="s1" />, bridge);
    const rows = await screen.findAllByTestId('carried-task');
    expect(rows.map((r) => [r.getAttribute('data-task-id'), r.getAttribute('data-state')])).toEqual([
      ['dev', 'running'],
      ['gone', 'stale'],
      ['shell', 'unverified'],
    ]);
    expect(within(rows[1]!).getByTestId('carried-task-state').textContent).toBe('process gone');
    expect(within(rows[2]!).getByTestId('carried-task-state').textContent).toBe('not verifiable here');
    expect(within(rows[0]!).getByTestId('carried-task-recommendation').textContent).toContain('Recommended: terminate or restart here.');
    expect(within(rows[1]!).getByTestId('restart-command').textContent).toContain('cd /w && run gone');
    expect(within(rows[1]!).queryByTestId('carried-terminate')).toBeNull();

    fireEvent.click(within(rows[0]!).getByTestId('carried-terminate'));
    expect(bridge.callsTo('tasks:terminate')).toBe(0); // asks first
    fireEvent.click(screen.getByTestId('carried-terminate-confirmed'));
    await waitFor(() => expect(screen.getAllByTestId('carried-task')[0]!.getAttribute('data-state')).toBe('failed'));
    expect(bridge.calls.find((c) => c.channel === 'tasks:terminate')?.payload).toEqual({ id: 'dev', confirmed: true });
    const loads = bridge.callsTo('tasks:carried');
    bridge.emit('tasks:changed', { id: 'gone', state: 'stale' });
    await waitFor(() => expect(bridge.callsTo('tasks:carried')).toBe(loads + 1));
  });

  it('shows nothing when the session has no tasks', async () => {
    const bridge = new MemoryBridge().handle('tasks:carried', () => okResult([]));
    const { container } = renderWithApi(<CarriedTasks sessionId="s1" />, bridge);
    await waitFor(() => expect(bridge.callsTo('tasks:carried')).toBe(1));
    expect(container.textContent).toBe('');
  });
});
