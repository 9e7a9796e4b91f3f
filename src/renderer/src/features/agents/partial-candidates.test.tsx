// @vitest-environment happy-dom
import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../components/App';
import { MemoryBridge, okResult } from '../../test-support/memory-bridge';
import { agentCandidate } from './candidate-fixture';
import { AGENT_FIRST_PAGE } from '../../../../shared/agents';
import { appTestApis } from '../../test-support/app-apis';

const { apiFor } = appTestApis();

describe('a host still on its first scan (fresh data directory, issue 15)', () => {
  it('shows the rows read so far with the progress line, and drops the line when the whole list arrives', async () => {
    let candidates = [agentCandidate({ externalId: 'c-1', title: 'Read first', cwd: '/home/dev/api', updatedAt: '2026-11-29T10:00:00Z' })];
    let scanning = true;
    const bridge = new MemoryBridge()
      .handle('sessions:list', () => okResult([]))
      .handle('agents:list', () => okResult({ candidates, stats: { files: 0, ms: 0 }, total: candidates.length, version: String(candidates.length), ...(scanning ? { scanning: true } : {}) }));
    const api = apiFor(bridge);
    render(<App api={api} />);
    await screen.findByRole('button', { name: /Read first/ });
    act(() => bridge.emit('agents:progress', { source: 'claude', done: 256, total: 10000 }));
    await waitFor(() => expect(screen.getByTestId('scan-status').textContent).toContain('Reading Claude Code sessions… 256 / 10,000'));

    // More rows while the scan goes on: the progress line stays (no reset to the generic text).
    candidates = [agentCandidate({ externalId: 'c-2', title: 'Read second', cwd: '/home/dev/api', updatedAt: '2026-11-29T11:00:00Z' }), ...candidates];
    act(() => bridge.emit('agents:changed', { added: 1, updated: 0, removed: 0, rescan: false }));
    await screen.findByRole('button', { name: /Read second/ });
    expect(screen.getByTestId('scan-status').textContent).toContain('256 / 10,000');

    // The scan ends: the whole list, no progress line.
    scanning = false;
    act(() => bridge.emit('agents:changed', { added: 0, updated: 0, removed: 0, rescan: true }));
    await waitFor(() => expect(screen.queryByTestId('scan-status')).toBeNull());
    expect(screen.getByTestId('session-total').textContent).toBe('2 sessions');
  });

  it('asks only for the first page while the host scans, and for the rest once the list is whole', async () => {
    const total = AGENT_FIRST_PAGE + 10;
    const all = Array.from({ length: total }, (_, i) => agentCandidate({ externalId: `c-${i}`, title: `Session ${i}`, cwd: '/home/dev/api', updatedAt: new Date(Date.UTC(2026, 10, 29) - i * 60_000).toISOString() }));
    let scanning = true;
    const asked: number[] = [];
    const bridge = new MemoryBridge()
      .handle('sessions:list', () => okResult([]))
      .handle('agents:list', (payload) => {
        const { offset = 0, limit } = (payload ?? {}) as { offset?: number; limit?: number };
        asked.push(offset);
        return okResult({ candidates: all.slice(offset, limit === undefined ? undefined : offset + limit), stats: { files: 0, ms: 0 }, total, version: scanning ? 'a' : 'b', ...(scanning ? { scanning: true } : {}) });
      });
    const api = apiFor(bridge);
    render(<App api={api} />);
    await screen.findByRole('button', { name: /Session 0\b/ });
    expect(screen.getByTestId('session-total').textContent).toBe(`${total} sessions`);
    await new Promise((r) => setTimeout(r, 50));
    expect(asked).toEqual([0]);
    scanning = false;
    act(() => bridge.emit('agents:changed', { added: 0, updated: 0, removed: 0, rescan: true }));
    await waitFor(() => expect(asked).toEqual([0, 0, AGENT_FIRST_PAGE]));
  });
});
