// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiFromTransport, createBridgeTransport, type BatonApi } from '../../api';
import { App } from '../../components/App';
import { detail, row } from '../../test-support/fixtures';
import { errResult, MemoryBridge, okResult } from '../../test-support/memory-bridge';
import { taskView } from './task-fixture';
import type { TaskView } from './task-display';

const apis: BatonApi[] = [];
beforeEach(() => {
  window.history.replaceState(null, '', '/');
  window.localStorage.clear();
});
afterEach(() => {
  vi.useRealTimers();
  cleanup();
  for (const api of apis.splice(0)) api.close();
});

function host(tasks: TaskView[], extra: (bridge: MemoryBridge) => void = () => undefined) {
  const bridge = new MemoryBridge()
    .handle('sessions:list', () => okResult([]))
    .handle('agents:list', () => okResult({ candidates: [], stats: { files: 0, ms: 0 } }))
    .handle('approvals:pending', () => okResult([]))
    .handle('tasks:list', () => okResult(tasks))
    .handle('tasks:handoff', () => okResult([]));
  extra(bridge);
  const api = createApiFromTransport(createBridgeTransport(bridge));
  apis.push(api);
  render(<App api={api} />);
  return bridge;
}
const card = (id: string) => screen.getAllByTestId('task').find((el) => el.getAttribute('data-task-id') === id)!;

describe('task panel', () => {
  it('shows each state honestly, with command, pid/port, log lines and exit code', async () => {
    host([
      taskView({ id: 'dev', command: 'npm run dev', port: 5173 }, { state: 'running', leaseRemainingMs: 25_000, processAlive: true }),
      taskView({ id: 'gone', command: 'npm run watch' }, { state: 'running', leaseRemainingMs: 25_000, processAlive: false }),
      taskView({ id: 'orph', command: 'vite preview' }, { state: 'orphaned', leaseRemainingMs: -5_000, processAlive: true }),
      taskView(
        { id: 'done', command: 'npm run build', state: 'completed', outcome: { exitCode: 0, lastLogLines: ['built in 2.1s'], reason: null, finishedAt: '2026-11-29T10:00:00Z' } },
        { state: 'completed', leaseRemainingMs: null, processAlive: false },
      ),
      taskView(
        { id: 'bad', command: 'npm test', state: 'failed', outcome: { exitCode: 2, lastLogLines: ['FAIL parser.test.ts', '1 failed'], reason: 'exited with 2', finishedAt: '2026-11-29T10:00:00Z' } },
        { state: 'failed', leaseRemainingMs: null, processAlive: null },
      ),
    ]);
    fireEvent.click(screen.getByTestId('open-tasks'));
    await screen.findByTestId('task-list');
    const states = Object.fromEntries(screen.getAllByTestId('task').map((el) => [el.getAttribute('data-task-id'), el.getAttribute('data-state')]));
    expect(states).toEqual({ dev: 'running', gone: 'stale', orph: 'orphaned', done: 'completed', bad: 'failed' });
    expect(within(card('gone')).getByTestId('task-state').textContent).not.toBe('running');
    expect(card('gone').textContent).toContain('Its process is gone.');
    expect(within(card('dev')).getByTestId('task-port').textContent).toBe('5173');
    expect(within(card('dev')).getByTestId('task-pid').textContent).toBe('4242');
    expect(within(card('bad')).getByTestId('task-exit').textContent).toBe('2');
    expect(within(card('bad')).getByTestId('task-log').textContent).toBe('FAIL parser.test.ts\n1 failed');
    expect(card('bad').textContent).toContain('exited with 2');
    // The badge counts only what is really live (running or stale).
    expect(screen.getByTestId('tasks-badge').textContent).toBe('2');
  });

  it('the lease counts down every second from the fetched value, and turns stale, then orphaned, without a fetch', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const bridge = host([taskView({ id: 'dev', leaseTtlMs: 30_000 }, { state: 'running', leaseRemainingMs: 11_000, processAlive: null })]);
    fireEvent.click(screen.getByTestId('open-tasks'));
    await screen.findByTestId('task-list');
    expect(within(card('dev')).getByTestId('task-lease').textContent).toBe('lease 11 s');
    expect(card('dev').getAttribute('data-state')).toBe('running');
    const fetches = bridge.callsTo('tasks:list');
    await act(async () => vi.advanceTimersByTimeAsync(3_000));
    // The clock ticks once a second, so the shown value may trail by up to one tick.
    expect(within(card('dev')).getByTestId('task-lease').textContent).toMatch(/^lease [89] s$/);
    expect(card('dev').getAttribute('data-state')).toBe('stale');
    await act(async () => vi.advanceTimersByTimeAsync(10_000));
    expect(card('dev').getAttribute('data-state')).toBe('orphaned');
    expect(within(card('dev')).getByTestId('task-lease').textContent).toBe('lease expired');
    expect(bridge.callsTo('tasks:list')).toBe(fetches);
  });

  it('tasks:changed re-fetches', async () => {
    const tasks = [taskView({ id: 'dev' })];
    const bridge = host(tasks);
    fireEvent.click(screen.getByTestId('open-tasks'));
    await screen.findByTestId('task-list');
    tasks[0] = taskView({ id: 'dev', state: 'completed', outcome: { exitCode: 0, lastLogLines: [], reason: null, finishedAt: '2026-11-29T10:00:00Z' } }, { state: 'completed', leaseRemainingMs: null });
    act(() => bridge.emit('tasks:changed', { id: 'dev', state: 'completed' }));
    await waitFor(() => expect(card('dev').getAttribute('data-state')).toBe('completed'));
  });

  it('tasks left behind by the open session: recommendation, Terminate asks, then sends confirmed: true', async () => {
    window.history.replaceState(null, '', '/#session=s1');
    const left = taskView({ id: 'srv', command: 'python -m http.server 8000', pid: 999, recoverable: false }, { state: 'running', processAlive: true });
    const bridge = host([left], (b) =>
      b
        .handle('session:get', () => okResult(detail('s1', [])))
        .handle('tasks:handoff', () => okResult([{ view: left, recommendation: { action: 'terminate', prompt: 'The server was started on the other machine; stop it here?' } }]))
        .handle('tasks:terminate', () => errResult('PID_MISMATCH', 'pid 999 now belongs to another process')),
    );
    fireEvent.click(screen.getByTestId('open-tasks'));
    const section = await screen.findByTestId('handoff-tasks');
    expect(within(section).getByTestId('task-recommendation').textContent).toContain('Recommended: terminate.');
    expect(within(section).getByTestId('task-recommendation').textContent).toContain('stop it here?');
    fireEvent.click(within(section).getByTestId('terminate'));
    const confirm = within(section).getByTestId('terminate-confirm');
    expect(confirm.textContent).toContain('python -m http.server 8000');
    expect(confirm.textContent).toContain('pid 999');
    expect(bridge.callsTo('tasks:terminate')).toBe(0);
    fireEvent.click(within(confirm).getByTestId('terminate-confirmed'));
    expect((await within(section).findByRole('alert')).textContent).toContain('PID_MISMATCH');
    expect(bridge.calls.find((c) => c.channel === 'tasks:terminate')?.payload).toEqual({ id: 'srv', confirmed: true });
  });

  it('task actions: stop asks first; open log reads the host; localhost:<port> for a live task; clear finished; titles instead of ids', async () => {
    const dev = taskView({ id: 'dev', command: 'npm run dev', port: 5173, sessionId: 's-api' }, { state: 'running', processAlive: true });
    const done = taskView(
      { id: 'done', command: 'npm run build', port: 4000, state: 'completed', outcome: { exitCode: 0, lastLogLines: [], reason: null, finishedAt: '2026-11-29T10:00:00Z' } },
      { state: 'completed', leaseRemainingMs: null, processAlive: false },
    );
    const bridge = host([dev, done], (b) =>
      b
        .handle('sessions:list', () => okResult([row({ id: 's-api', title: 'Rate limiter for the API' })]))
        .handle('tasks:terminate', () => okResult({ ...dev, state: 'failed' }))
        .handle('tasks:log', () => okResult({ path: '/tmp/dev.log', text: 'ready on http://localhost:5173\n', bytes: 70_000, shownBytes: 65_536 }))
        .handle('tasks:clear-finished', () => okResult({ cleared: ['done'] })),
    );
    fireEvent.click(screen.getByTestId('open-tasks'));
    await screen.findByTestId('task-list');
    await waitFor(() => expect(within(card('dev')).getByTestId('task-session').textContent).toBe('Rate limiter for the API'));

    // Stop: a confirmation naming the command and pid, then confirmed: true.
    expect(within(card('done')).queryByTestId('terminate')).toBeNull();
    fireEvent.click(within(card('dev')).getByTestId('terminate'));
    expect(within(card('dev')).getByTestId('terminate-confirm').textContent).toContain('npm run dev (pid 4242)');
    expect(bridge.callsTo('tasks:terminate')).toBe(0);
    fireEvent.click(within(card('dev')).getByTestId('terminate-confirmed'));
    await waitFor(() => expect(bridge.calls.find((c) => c.channel === 'tasks:terminate')?.payload).toEqual({ id: 'dev', confirmed: true }));

    fireEvent.click(within(card('dev')).getByTestId('task-open-log'));
    const log = await within(card('dev')).findByTestId('task-log-view');
    expect(log.textContent).toContain('ready on http://localhost:5173');
    expect(log.textContent).toContain('the last 65,536 of 70,000 bytes');

    expect(within(card('dev')).getByTestId('task-open-port').getAttribute('href')).toBe('http://localhost:5173/');
    expect(within(card('done')).queryByTestId('task-open-port')).toBeNull();

    fireEvent.click(screen.getByTestId('tasks-clear-finished'));
    await waitFor(() => expect(bridge.callsTo('tasks:clear-finished')).toBe(1));
  });
});
