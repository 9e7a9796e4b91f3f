// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiFromTransport, createBridgeTransport, type BatonApi } from '../api';
import { detail, message, row } from '../test-support/fixtures';
import { errResult, MemoryBridge, okResult } from '../test-support/memory-bridge';
import { App } from './App';
import { HANDOFF_COMMAND } from './EmptyState';

const apis: BatonApi[] = [];
// The open session is kept in the address fragment; every test starts from a clean address.
beforeEach(() => window.history.replaceState(null, '', '/'));
afterEach(() => {
  cleanup();
  for (const api of apis.splice(0)) api.close();
});

function start(bridge: MemoryBridge) {
  bridge.handle('host:info', () => okResult({ host: 'electron', version: '0.1.0', dataDir: '/d', endpoint: '/e' }));
  const api = createApiFromTransport(createBridgeTransport(bridge));
  apis.push(api);
  render(<App api={api} />);
  return api;
}

const itemIds = () => screen.queryAllByTestId('session-item').map((b) => b.getAttribute('data-session-id'));

describe('App', () => {
  it('shows loading, then the empty state with the exact command to run', async () => {
    let answer: (value: ReturnType<typeof okResult>) => void = () => undefined;
    const bridge = new MemoryBridge().handle('sessions:list', () => new Promise((resolve) => (answer = resolve)));
    start(bridge);
    expect(screen.getByText('Loading sessions…')).toBeTruthy();
    await act(async () => answer(okResult([])));
    const empty = await screen.findByTestId('empty-state');
    expect(empty.textContent).toContain('No sessions yet.');
    expect(empty.textContent).toContain('From a terminal, run:');
    expect(within(empty).getByText(HANDOFF_COMMAND).tagName).toBe('CODE');
    expect(HANDOFF_COMMAND).toBe('baton handoff --cwd . --title "…" --messages session.jsonl');
    expect(within(empty).getByRole('button', { name: 'Copy command' })).toBeTruthy();
  });

  it('an error says what failed, and Retry fetches again', async () => {
    const bridge = new MemoryBridge().handle('sessions:list', () => errResult('IO_ERROR', 'Cannot read /data/index.json: permission denied'));
    start(bridge);
    const error = await screen.findByTestId('error-state');
    expect(error.textContent).toContain('Could not load the sessions.');
    expect(error.textContent).toContain('Cannot read /data/index.json: permission denied');
    expect(error.textContent).toContain('IO_ERROR');
    bridge.handle('sessions:list', () => okResult([row({ id: 's1', title: 'Recovered' })]));
    fireEvent.click(within(error).getByRole('button', { name: 'Retry' }));
    await screen.findByRole('button', { name: /Recovered/ });
    expect(screen.queryByTestId('error-state')).toBeNull();
  });

  it('a malformed answer is an error state, not a crash', async () => {
    const bridge = new MemoryBridge().handle('sessions:list', () => okResult({ rows: 'nope' }));
    start(bridge);
    const error = await screen.findByTestId('error-state');
    expect(error.textContent).toContain('BAD_RESPONSE');
  });

  it('opens a session on click, shows its conversation, and keeps it open across live updates', async () => {
    const rows = [row({ id: 's1', title: 'First', cwd: '/p/a', updatedAt: '2026-11-29T10:00:00Z' })];
    const bridge = new MemoryBridge()
      .handle('sessions:list', () => okResult(rows))
      .handle('session:get', (payload) => okResult(detail((payload as { id: string }).id, [message(0, { content: 'hello there' })], { title: 'First' })));
    start(bridge);
    fireEvent.click(await screen.findByRole('button', { name: /First/ }));
    expect((await screen.findByTestId('session-title')).textContent).toBe('First');
    expect(screen.getByTestId('message').getAttribute('data-role')).toBe('user');

    rows.push(row({ id: 's2', title: 'Second', cwd: '/p/b', updatedAt: '2026-11-29T11:00:00Z' }));
    act(() => bridge.emit('session:changed', { id: 's2', reason: 'handoff' }));
    await waitFor(() => expect(itemIds()).toEqual(['s2', 's1']));
    expect(screen.getByTestId('session-title').textContent).toBe('First');
    const open = screen.getAllByTestId('session-item').find((b) => b.getAttribute('aria-current') === 'true');
    expect(open?.getAttribute('data-session-id')).toBe('s1');
    expect(screen.getAllByTestId('session-group').map((g) => g.getAttribute('data-cwd'))).toEqual(['/p/b', '/p/a']);
  });

  it('re-fetches the open session when it changes', async () => {
    const messages = [message(0, { content: 'one' })];
    const bridge = new MemoryBridge()
      .handle('sessions:list', () => okResult([row({ id: 's1', title: 'Live' })]))
      .handle('session:get', () => okResult(detail('s1', [...messages], { title: 'Live' })));
    start(bridge);
    fireEvent.click(await screen.findByRole('button', { name: /Live/ }));
    await waitFor(() => expect(screen.getAllByTestId('message')).toHaveLength(1));
    messages.push(message(1, { role: 'assistant', content: 'two' }));
    act(() => bridge.emit('session:changed', { id: 'other', reason: 'append' }));
    act(() => bridge.emit('session:changed', { id: 's1', reason: 'append' }));
    await waitFor(() => expect(screen.getAllByTestId('message')).toHaveLength(2));
    expect(screen.getAllByTestId('message')[1]!.textContent).toContain('two');
  });

  it('session:select opens the session it names, even before the list shows it', async () => {
    const bridge = new MemoryBridge()
      .handle('sessions:list', () => okResult([]))
      .handle('session:get', () => okResult(detail('fresh', [message(0)], { title: 'Just handed off' })));
    start(bridge);
    await screen.findByTestId('empty-state');
    act(() => bridge.emit('session:select', { id: 'fresh' }));
    expect((await screen.findByTestId('session-title')).textContent).toBe('Just handed off');
    expect(screen.queryByTestId('empty-state')).toBeNull();
    expect(bridge.calls.filter((c) => c.channel === 'session:get').map((c) => c.payload)).toEqual([{ id: 'fresh' }]);
  });

  it('with sessions but none open, the right pane says how to pick one', async () => {
    start(new MemoryBridge().handle('sessions:list', () => okResult([row({ id: 's1' })])));
    await screen.findAllByTestId('session-item');
    expect(screen.getByTestId('no-selection').textContent).toContain('Pick a session');
    expect(screen.queryByTestId('empty-state')).toBeNull();
  });

  it('a session that does not exist says so', async () => {
    const bridge = new MemoryBridge()
      .handle('sessions:list', () => okResult([]))
      .handle('session:get', () => errResult('NOT_FOUND', 'Session gone was not found'));
    start(bridge);
    act(() => bridge.emit('session:select', { id: 'gone' }));
    const notFound = await screen.findByTestId('session-not-found');
    expect(notFound.textContent).toContain('gone');
  });

  it('a failure to open a session offers Retry', async () => {
    let fail = true;
    const bridge = new MemoryBridge()
      .handle('sessions:list', () => okResult([row({ id: 's1', title: 'Flaky' })]))
      .handle('session:get', () => (fail ? errResult('IO_ERROR', 'messages.jsonl unreadable') : okResult(detail('s1', [], { title: 'Flaky' }))));
    start(bridge);
    fireEvent.click(await screen.findByRole('button', { name: /Flaky/ }));
    const error = await screen.findByTestId('error-state');
    expect(error.textContent).toContain('Could not open session s1.');
    fail = false;
    fireEvent.click(within(error).getByRole('button', { name: 'Retry' }));
    expect((await screen.findByTestId('session-title')).textContent).toBe('Flaky');
  });

  it('coalesces a burst of change events into few list fetches', async () => {
    const bridge = new MemoryBridge().handle('sessions:list', () => okResult([row({ id: 's1' })]));
    start(bridge);
    await screen.findAllByTestId('session-item');
    const before = bridge.callsTo('sessions:list');
    act(() => {
      for (let i = 0; i < 50; i++) bridge.emit('session:changed', { id: 's1', reason: 'append' });
    });
    await waitFor(() => expect(bridge.callsTo('sessions:list')).toBeGreaterThan(before));
    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(bridge.callsTo('sessions:list') - before).toBeLessThanOrEqual(2);
  });

  it('keeps the open session in the address, so a reload reopens it', async () => {
    const bridge = new MemoryBridge()
      .handle('sessions:list', () => okResult([row({ id: 's1', title: 'Bookmarked' })]))
      .handle('session:get', () => okResult(detail('s1', [], { title: 'Bookmarked' })));
    start(bridge);
    fireEvent.click(await screen.findByRole('button', { name: /Bookmarked/ }));
    await screen.findByTestId('session-title');
    // The address and the window title are set by effects after the title renders (a loaded CI run
    // read them a turn too early).
    await waitFor(() => expect(window.location.hash).toBe('#session=s1'));
    await waitFor(() => expect(document.title).toBe('Bookmarked — Baton'));
    cleanup();
    start(bridge);
    expect((await screen.findByTestId('session-title')).textContent).toBe('Bookmarked');
  });

  it('an answer for a session that is no longer open is dropped', async () => {
    const answers = new Map<string, (value: ReturnType<typeof okResult>) => void>();
    const bridge = new MemoryBridge()
      .handle('sessions:list', () => okResult([row({ id: 'slow', title: 'Slow one' }), row({ id: 'fast', title: 'Fast one' })]))
      .handle('session:get', (payload) => new Promise((resolve) => answers.set((payload as { id: string }).id, resolve)));
    start(bridge);
    fireEvent.click(await screen.findByRole('button', { name: /Slow one/ }));
    fireEvent.click(screen.getByRole('button', { name: /Fast one/ }));
    await waitFor(() => expect(answers.size).toBe(2));
    await act(async () => answers.get('fast')?.(okResult(detail('fast', [], { title: 'Fast one' }))));
    await act(async () => answers.get('slow')?.(okResult(detail('slow', [], { title: 'Slow one' }))));
    expect(screen.getByTestId('session-title').textContent).toBe('Fast one');
  });

  it('shows which host it runs in', async () => {
    const bridge = new MemoryBridge().handle('sessions:list', () => okResult([]));
    start(bridge);
    expect((await screen.findByText(/Desktop · v0\.1\.0/)).getAttribute('title')).toBe('Store: /d');
  });
});
