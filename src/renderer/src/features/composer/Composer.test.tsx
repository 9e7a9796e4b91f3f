// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ComposerStatus, RunView } from '../../../../shared/agent-run';
import { DEFAULT_PREFERENCES, applyPreferencesPatch, type Preferences, type PreferencesPatch } from '../../../../shared/preferences';
import { MemoryBridge, okResult } from '../../test-support/memory-bridge';
import { renderWithApi } from '../workspace/test-kit';
import { Composer } from './Composer';

afterEach(cleanup);

const off: ComposerStatus = {
  available: false,
  tool: null,
  reason: 'This session was written in Baton; no agent is behind it to continue it. Continue it in the terminal.',
  model: null,
  models: [],
  approvals: '',
  run: null,
  queued: null,
};
const run: RunView = {
  runId: 'run-1',
  sessionId: 's1',
  taskId: 't1',
  tool: 'claude',
  prompt: 'make the file',
  model: 'claude-opus-5-5',
  state: 'running',
  events: [{ kind: 'started', at: '2026-11-30T10:00:00Z', pid: 10, command: 'claude -p …', model: 'claude-opus-5-5' }],
};
const on: ComposerStatus = { ...off, available: true, tool: 'claude', reason: null, model: 'claude-opus-5-5', models: ['claude-opus-5-5', 'sonnet'], approvals: 'Each Bash call asks here.' };

function bridgeWith(status: ComposerStatus): MemoryBridge {
  return new MemoryBridge().handle('composer:status', () => okResult(status)).handle('approvals:pending', () => okResult([]));
}

describe('Composer', () => {
  it('says why it is off for a session with no agent behind it', async () => {
    renderWithApi(<Composer sessionId="s1" externalId={null} />, bridgeWith(off));
    expect((await screen.findByTestId('composer-off')).textContent).toMatch(/no agent is behind it/);
    expect(screen.queryByTestId('composer-input')).toBeNull();
  });

  it('sends with the model picked (shown, never silent), then streams events into the run and updates a tool card in place', async () => {
    const bridge = bridgeWith(on).handle('composer:send', () => okResult({ ...on, run }));
    renderWithApi(<Composer sessionId="s1" externalId="ext-1" />, bridge);
    const model = (await screen.findByTestId('composer-model')) as HTMLSelectElement;
    expect(model.value).toBe('claude-opus-5-5');
    expect(screen.getByText('claude-opus-5-5 (recorded)')).toBeTruthy();
    fireEvent.change(model, { target: { value: 'sonnet' } });
    fireEvent.change(screen.getByTestId('composer-input'), { target: { value: 'make the file' } });
    fireEvent.click(screen.getByTestId('composer-send'));
    await screen.findByTestId('run-stream');
    expect(bridge.calls.find((c) => c.channel === 'composer:send')?.payload).toEqual({ sessionId: 's1', prompt: 'make the file', model: 'sonnet' });

    bridge.emit('composer:event', { sessionId: 's1', runId: 'run-1', state: 'running', event: { kind: 'tool-call', id: 'tc', name: 'Bash', input: { command: 'touch x' } } });
    await waitFor(() => expect(screen.getByTestId('run-tool').getAttribute('data-status')).toBe('running'));
    bridge.emit('composer:event', { sessionId: 's1', runId: 'run-1', state: 'running', event: { kind: 'tool-result', id: 'tc', output: 'ok', isError: false } });
    await waitFor(() => expect(screen.getByTestId('run-tool').getAttribute('data-status')).toBe('done'));
    // An event of another session is not this run's.
    bridge.emit('composer:event', { sessionId: 's2', runId: 'run-9', state: 'running', event: { kind: 'text', id: 'x', text: 'elsewhere' } });
    expect(screen.queryByText('elsewhere')).toBeNull();
    expect(screen.getByTestId('composer-stop')).toBeTruthy();
    expect(screen.getByTestId('composer-send').textContent).toBe('Queue');
  });

  it('on the desktop, "leave runs going when Baton closes" is a preference the checkbox reads and writes', async () => {
    let prefs: Preferences = DEFAULT_PREFERENCES;
    const bridge = bridgeWith(on)
      .handle('host:info', () => okResult({ host: 'electron', version: '0', dataDir: '/d', endpoint: '/e' }))
      .handle('prefs:get', () => okResult(prefs))
      .handle('prefs:set', (patch) => okResult((prefs = applyPreferencesPatch(prefs, patch as PreferencesPatch))));
    renderWithApi(<Composer sessionId="s1" externalId="ext-1" />, bridge);
    const box = (await screen.findByTestId('composer-leave-runs')) as HTMLInputElement;
    await waitFor(() => expect(box.disabled).toBe(false));
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    await waitFor(() => expect(prefs.leaveRunsOnClose).toBe(true));
    expect(box.checked).toBe(true);
    expect(bridge.calls.find((c) => c.channel === 'prefs:set')?.payload).toEqual({ leaveRunsOnClose: true });
  });

  it('in the browser host, says the choice is the env variable of baton serve (the page does not close the host)', async () => {
    const bridge = bridgeWith(on)
      .handle('host:info', () => okResult({ host: 'browser', version: '0', dataDir: '/d', endpoint: '/e' }))
      .handle('prefs:get', () => okResult(DEFAULT_PREFERENCES));
    renderWithApi(<Composer sessionId="s1" externalId="ext-1" />, bridge);
    expect((await screen.findByTestId('composer-leave-runs-env')).textContent).toMatch(/BATON_LEAVE_RUNS_ON_CLOSE=1/);
    expect(screen.queryByTestId('composer-leave-runs')).toBeNull();
  });

  it('shows a queued follow-up as queued', async () => {
    renderWithApi(<Composer sessionId="s1" externalId="ext-1" />, bridgeWith({ ...on, run, queued: 'then this' }));
    expect((await screen.findByTestId('composer-queued')).textContent).toMatch('then this');
  });
});
