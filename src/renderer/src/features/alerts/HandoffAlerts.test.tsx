// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiFromTransport, createBridgeTransport, type BatonApi } from '../../api';
import { MemoryBridge, okResult } from '../../test-support/memory-bridge';
import { HandoffAlerts } from './HandoffAlerts';

const apis: BatonApi[] = [];
beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  for (const api of apis.splice(0)) api.close();
});

const alert = (handoffId: string, fields: string[], at = new Date().toISOString()) => ({
  at,
  sessionId: 's1',
  handoffId,
  fields,
  message: `The handoff of "Fix tests" was refused: the files on disk differ from the manifest in ${fields.join(', ')}.`,
});

function mount(list: () => unknown[]) {
  const bridge = new MemoryBridge().handle('alerts:list', () => okResult(list()));
  const api = createApiFromTransport(createBridgeTransport(bridge));
  apis.push(api);
  render(<HandoffAlerts api={api} />);
  return bridge;
}

describe('handoff alerts', () => {
  it('shows a recorded mismatch, a new one when the host tells, and remembers a dismissal', async () => {
    let alerts = [alert('h1', ['context.compacted_summary_sha256']), alert('h-old', ['context.message_count'], '2020-01-01T00:00:00Z')];
    const bridge = mount(() => alerts);
    const first = await screen.findByTestId('handoff-alert');
    expect(first.textContent).toContain('context.compacted_summary_sha256');
    expect(screen.getAllByTestId('handoff-alert')).toHaveLength(1);

    alerts = [alert('h2', ['context.tool_calls_sha256']), ...alerts];
    act(() => bridge.emit('handoff:alert', alerts[0]));
    expect(await screen.findByText(/differ from the manifest in context\.tool_calls_sha256/)).toBeTruthy();
    expect(screen.getAllByTestId('handoff-alert')).toHaveLength(2);

    fireEvent.click(screen.getAllByText('Dismiss')[1]!);
    expect(screen.getAllByTestId('handoff-alert').map((a) => a.getAttribute('data-handoff-id'))).toEqual(['h2']);
    expect(JSON.parse(localStorage.getItem('baton.dismissedHandoffAlerts')!)).toEqual(['h1']);
  });

  it('shows nothing when there is nothing to say', async () => {
    const bridge = mount(() => []);
    await act(async () => undefined);
    expect(bridge.callsTo('alerts:list')).toBe(1);
    expect(screen.queryByTestId('handoff-alerts')).toBeNull();
  });
});
