// @vitest-environment happy-dom
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../components/App';
import { row } from '../../test-support/fixtures';
import { MemoryBridge, okResult } from '../../test-support/memory-bridge';
import { agentCandidate } from './candidate-fixture';
import { scanningText } from './ScanStatus';
import { AGENT_FIRST_PAGE, AGENT_PAGE_SIZE } from '../../../../shared/agents';
import { appTestApis } from '../../test-support/app-apis';

const { apiFor } = appTestApis();

describe('candidates kept live by the host (issue 15)', () => {
  it('shows the cold scan\'s progress per tool, with thousands separators', async () => {
    let finishScan: (value: ReturnType<typeof okResult>) => void = () => undefined;
    const bridge = new MemoryBridge()
      .handle('sessions:list', () => okResult([row({ id: 'b1', title: 'Baton one' })]))
      .handle('agents:list', () => new Promise((resolve) => (finishScan = resolve)));
    render(<App api={apiFor(bridge)} />);
    await screen.findByRole('button', { name: /Baton one/ });
    act(() => bridge.emit('agents:progress', { source: 'claude', done: 4210, total: 10000 }));
    await waitFor(() => expect(screen.getByTestId('scan-status').textContent).toContain('Reading Claude Code sessions… 4,210 / 10,000'));
    act(() => bridge.emit('agents:progress', { source: 'codex', done: 12, total: 10000 }));
    await waitFor(() => expect(screen.getByTestId('scan-status').textContent).toContain('Reading Codex sessions… 12 / 10,000'));
    await act(async () => finishScan(okResult({ candidates: [], stats: { files: 0, ms: 1 } })));
    await waitFor(() => expect(screen.queryByTestId('scan-status')).toBeNull());
    // A late progress event after the answer does not bring the spinner back.
    act(() => bridge.emit('agents:progress', { source: 'codex', done: 13, total: 10000 }));
    expect(screen.queryByTestId('scan-status')).toBeNull();
  });

  it('agents:changed re-fetches the list without a spinner, and a new session appears in its group', async () => {
    let candidates = [agentCandidate({ externalId: 'c-1', title: 'Old one', cwd: '/home/dev/api', updatedAt: '2026-11-29T10:00:00Z' })];
    const bridge = new MemoryBridge()
      .handle('sessions:list', () => okResult([]))
      .handle('agents:list', () => okResult({ candidates, stats: { files: candidates.length, ms: 1 } }));
    render(<App api={apiFor(bridge)} />);
    await screen.findByRole('button', { name: /Old one/ });
    candidates = [agentCandidate({ externalId: 'c-2', title: 'Brand new', cwd: '/home/dev/api', updatedAt: '2026-11-29T11:00:00Z' }), ...candidates];
    act(() => bridge.emit('agents:changed', { added: 1, updated: 0, removed: 0, rescan: false }));
    expect(screen.queryByTestId('scan-status')).toBeNull();
    await screen.findByRole('button', { name: /Brand new/ });
    const group = screen.getAllByTestId('session-group')[0]!;
    expect(within(group).getAllByTestId('session-item').map((el) => el.getAttribute('data-session-id'))).toEqual(['claude:c-2', 'claude:c-1']);
    expect(screen.getByTestId('session-total').textContent).toBe('2 sessions');
    expect(bridge.callsTo('agents:list')).toBe(2);
  });

  it('counts every candidate from the first answer (the newest 200), then streams the rest in pages of the same version', async () => {
    const total = AGENT_FIRST_PAGE + AGENT_PAGE_SIZE + 100;
    const all = Array.from({ length: total }, (_, i) =>
      agentCandidate({ externalId: `c-${i}`, title: `Session ${i}`, cwd: `/home/dev/p${i % 4}`, updatedAt: new Date(Date.UTC(2026, 10, 29) - i * 60_000).toISOString() }),
    );
    let releasePages: () => void = () => undefined;
    const pagesAllowed = new Promise<void>((resolve) => (releasePages = resolve));
    const asked: Array<{ offset?: number; limit?: number }> = [];
    const bridge = new MemoryBridge()
      .handle('sessions:list', () => okResult([]))
      .handle('agents:list', async (payload) => {
        const { offset = 0, limit } = (payload ?? {}) as { offset?: number; limit?: number };
        asked.push({ offset, limit });
        if (offset > 0) await pagesAllowed;
        return okResult({ candidates: all.slice(offset, limit === undefined ? undefined : offset + limit), stats: { files: total, ms: 1 }, total, version: 'v1' });
      });
    render(<App api={apiFor(bridge)} />);
    await screen.findByRole('button', { name: /Session 0\b/ });
    // First frame: the newest rows are painted and the count is already the whole set.
    expect(screen.getByTestId('session-total').textContent).toBe(`${total.toLocaleString('en-US')} sessions`);
    expect(asked[0]).toEqual({ offset: 0, limit: AGENT_FIRST_PAGE });
    await act(async () => releasePages());
    await waitFor(() => expect(asked.map((a) => a.offset)).toEqual([0, AGENT_FIRST_PAGE, AGENT_FIRST_PAGE + AGENT_PAGE_SIZE]));
    expect(asked.slice(1).every((a) => a.limit === AGENT_PAGE_SIZE)).toBe(true);
    expect(screen.getByTestId('session-total').textContent).toBe(`${total.toLocaleString('en-US')} sessions`);
  });

  it('stops streaming when the set changed between pages (the agents:changed that follows starts over)', async () => {
    const all = Array.from({ length: AGENT_FIRST_PAGE + 10 }, (_, i) => agentCandidate({ externalId: `d-${i}`, title: `Row ${i}`, updatedAt: new Date(Date.UTC(2026, 10, 29) - i * 60_000).toISOString() }));
    const bridge = new MemoryBridge()
      .handle('sessions:list', () => okResult([]))
      .handle('agents:list', (payload) => {
        const { offset = 0, limit } = (payload ?? {}) as { offset?: number; limit?: number };
        return okResult({ candidates: all.slice(offset, limit === undefined ? undefined : offset + limit), stats: { files: all.length, ms: 1 }, total: all.length, version: offset === 0 ? 'v1' : 'v2' });
      });
    render(<App api={apiFor(bridge)} />);
    await screen.findByRole('button', { name: /Row 0\b/ });
    await waitFor(() => expect(bridge.callsTo('agents:list')).toBe(2));
    // The mixed-version page was not appended: no row from it.
    expect(screen.queryByRole('button', { name: new RegExp(`Row ${AGENT_FIRST_PAGE + 5}\\b`) })).toBeNull();
  });

  it('the plain line is used until the host reports progress', () => {
    expect(scanningText({})).toBe('Scanning Claude Code and Codex sessions…');
    expect(scanningText({ progress: { source: 'codex', done: 1234567, total: 2000000 } })).toBe('Reading Codex sessions… 1,234,567 / 2,000,000');
  });
});
