// @vitest-environment happy-dom
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../components/App';
import { ApiContext } from '../../hooks/api-context';
import { detail, message, row } from '../../test-support/fixtures';
import { errResult, MemoryBridge, okResult } from '../../test-support/memory-bridge';
import { agentCandidate } from './candidate-fixture';
import { CandidatePanel } from './CandidatePanel';
import { appTestApis } from '../../test-support/app-apis';

const NOW = Date.parse('2026-11-29T12:00:00.000Z');
const { apiFor } = appTestApis();

function renderPanel(bridge: MemoryBridge, candidate = agentCandidate()) {
  const opened: string[] = [];
  render(
    <ApiContext.Provider value={apiFor(bridge)}>
      <CandidatePanel candidate={candidate} now={NOW} onOpened={(id) => opened.push(id)} />
    </ApiContext.Provider>,
  );
  return opened;
}

const terminal = (over: Record<string, unknown> = {}) => ({
  tool: 'claude',
  command: 'claude --resume 1111',
  cwd: '/home/dev/api',
  cwdExists: true,
  movedTo: null,
  shellLine: 'cd /home/dev/api && claude --resume 1111',
  ...over,
});

describe('CandidatePanel', () => {
  it('shows title, directory, branch, source, updated, count (≈ when estimated) and the note', () => {
    renderPanel(new MemoryBridge(), agentCandidate({ messageCount: 480, messageCountExact: false, note: 'The last line was being written; it is not counted.' }));
    const panel = screen.getByTestId('candidate-panel');
    expect(screen.getByTestId('candidate-title').textContent).toBe('Fix the failing test in parser.ts');
    expect(screen.getByTestId('candidate-cwd').textContent).toBe('/home/dev/api');
    expect(panel.textContent).toContain('main');
    expect(panel.textContent).toContain('Claude Code');
    expect(panel.textContent).toContain('2 h ago');
    expect(screen.getByTestId('candidate-messages').textContent).toBe('≈480');
    expect(screen.getByTestId('candidate-note').textContent).toContain('being written');
  });

  it('an exact count has no ≈', () => {
    renderPanel(new MemoryBridge(), agentCandidate({ messageCount: 12 }));
    expect(screen.getByTestId('candidate-messages').textContent).toBe('12');
  });

  it('Open in Baton imports by source and path, then selects the new session', async () => {
    const candidate = agentCandidate({ source: 'codex', externalId: 'x-1', path: '/h/.codex/sessions/2026/11/29/rollout-x-1.jsonl' });
    const bridge = new MemoryBridge().handle('agents:import', () => okResult({ sessionId: 'imp-abc', created: true }));
    const opened = renderPanel(bridge, candidate);
    fireEvent.click(screen.getByTestId('candidate-open'));
    await waitFor(() => expect(opened).toEqual(['imp-abc']));
    expect(bridge.calls.find((c) => c.channel === 'agents:import')?.payload).toEqual({ source: 'codex', path: candidate.path });
  });

  it('a failed import says why, with the code', async () => {
    const bridge = new MemoryBridge().handle('agents:import', () => errResult('NOT_FOUND', 'The log was deleted'));
    const opened = renderPanel(bridge);
    fireEvent.click(screen.getByTestId('candidate-open'));
    const error = await screen.findByTestId('candidate-open-error');
    expect(error.textContent).toContain('The log was deleted');
    expect(error.textContent).toContain('NOT_FOUND');
    expect(opened).toEqual([]);
  });

  it('Continue in terminal asks for the command by tool id and cwd and shows the shell line with Copy', async () => {
    const bridge = new MemoryBridge().handle('terminal:command', () => okResult(terminal()));
    renderPanel(bridge);
    fireEvent.click(screen.getByTestId('candidate-terminal'));
    const shown = await screen.findByTestId('terminal-command');
    expect(within(shown).getByText('cd /home/dev/api && claude --resume 1111').tagName).toBe('CODE');
    expect(within(shown).getByRole('button', { name: 'Copy command' })).toBeTruthy();
    expect(screen.queryByTestId('terminal-cwd-warning')).toBeNull();
    expect(bridge.calls.find((c) => c.channel === 'terminal:command')?.payload).toEqual({
      source: 'claude',
      externalId: '11111111-2222-4333-8444-555555555555',
      cwd: '/home/dev/api',
    });
  });

  it('a directory that no longer exists is said, with where it moved', async () => {
    const bridge = new MemoryBridge().handle('terminal:command', () => okResult(terminal({ cwdExists: false, movedTo: '/home/dev/moved/api', shellLine: 'cd /home/dev/moved/api && claude --resume 1111' })));
    renderPanel(bridge);
    fireEvent.click(screen.getByTestId('candidate-terminal'));
    const warning = await screen.findByTestId('terminal-cwd-warning');
    expect(warning.textContent).toContain('/home/dev/api no longer exists');
    expect(warning.textContent).toContain('moved to /home/dev/moved/api');
  });

  it('gone without a known new place: says to run it wherever the project is now', async () => {
    const bridge = new MemoryBridge().handle('terminal:command', () => okResult(terminal({ cwdExists: false })));
    renderPanel(bridge);
    fireEvent.click(screen.getByTestId('candidate-terminal'));
    expect((await screen.findByTestId('terminal-cwd-warning')).textContent).toContain('wherever the project is now');
  });

  it('no directory in the log: Continue in terminal is disabled', () => {
    renderPanel(new MemoryBridge(), agentCandidate({ cwd: null }));
    expect((screen.getByTestId('candidate-terminal') as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('App with Claude Code and Codex candidates', () => {
  it('the index shows first, candidates merge in when the scan answers, with their badges and groups', async () => {
    let finishScan: (value: ReturnType<typeof okResult>) => void = () => undefined;
    const bridge = new MemoryBridge()
      .handle('host:info', () => okResult({ host: 'browser', version: '0.1.0', dataDir: '/d', endpoint: '/e' }))
      .handle('sessions:list', () => okResult([row({ id: 'b1', title: 'Baton one', cwd: '/home/dev/api', updatedAt: '2026-11-29T09:00:00Z' })]))
      .handle('agents:list', () => new Promise((resolve) => (finishScan = resolve)));
    render(<App api={apiFor(bridge)} />);
    await screen.findByRole('button', { name: /Baton one/ });
    expect(screen.getByTestId('scan-status').textContent).toContain('Scanning Claude Code and Codex sessions');
    await act(async () =>
      finishScan(
        okResult({
          candidates: [
            agentCandidate({ externalId: 'c-1', title: 'Claude in api', cwd: '/home/dev/api', updatedAt: '2026-11-29T11:00:00Z' }),
            agentCandidate({ source: 'codex', externalId: 'x-1', title: 'Codex in web', cwd: '/home/dev/web', updatedAt: '2026-11-29T10:00:00Z' }),
          ],
          stats: { files: 2, ms: 5 },
        }),
      ),
    );
    await waitFor(() => expect(screen.queryByTestId('scan-status')).toBeNull());
    const groups = screen.getAllByTestId('session-group');
    expect(groups.map((g) => g.getAttribute('data-cwd'))).toEqual(['/home/dev/api', '/home/dev/web']);
    expect(within(groups[0]!).getAllByTestId('session-item').map((el) => [el.getAttribute('data-session-id'), el.getAttribute('data-source')])).toEqual([
      ['claude:c-1', 'claude'],
      ['b1', 'baton'],
    ]);
    expect(screen.getByTestId('session-total').textContent).toBe('3 sessions');
  });

  it('selecting a candidate shows its panel (no session:get); Open in Baton switches to the imported session', async () => {
    const bridge = new MemoryBridge()
      .handle('host:info', () => okResult({ host: 'browser', version: '0.1.0', dataDir: '/d', endpoint: '/e' }))
      .handle('sessions:list', () => okResult([]))
      .handle('agents:list', () => okResult({ candidates: [agentCandidate({ externalId: 'c-1', title: 'Claude in api' })], stats: { files: 1, ms: 1 } }))
      .handle('agents:import', () => okResult({ sessionId: 'imp-1', created: true }))
      .handle('session:get', () => okResult(detail('imp-1', [message(0, { content: 'imported prompt' })], { title: 'Claude in api' })));
    render(<App api={apiFor(bridge)} />);
    fireEvent.click(await screen.findByRole('button', { name: /Claude in api/ }));
    expect(await screen.findByTestId('candidate-panel')).toBeTruthy();
    expect(window.location.hash).toBe('#session=claude%3Ac-1');
    expect(bridge.callsTo('session:get')).toBe(0);
    fireEvent.click(screen.getByTestId('candidate-open'));
    expect((await screen.findByTestId('session-title')).textContent).toBe('Claude in api');
    expect(window.location.hash).toBe('#session=imp-1');
  });

  it('a candidate link opened before the scan answers waits for it, then says if it is gone', async () => {
    window.history.replaceState(null, '', '/#session=claude%3Agone');
    let finishScan: (value: ReturnType<typeof okResult>) => void = () => undefined;
    const bridge = new MemoryBridge()
      .handle('sessions:list', () => okResult([row({ id: 'b1' })]))
      .handle('agents:list', () => new Promise((resolve) => (finishScan = resolve)));
    render(<App api={apiFor(bridge)} />);
    expect(await screen.findByText('Scanning Claude Code and Codex sessions…', { selector: '.visually-hidden' })).toBeTruthy();
    await act(async () => finishScan(okResult({ candidates: [], stats: { files: 0, ms: 1 } })));
    expect((await screen.findByTestId('candidate-not-found')).textContent).toContain('claude:gone');
  });
});
