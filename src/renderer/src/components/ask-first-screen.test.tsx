// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { agentCandidate } from '../features/agents/candidate-fixture';
import { row } from '../test-support/fixtures';
import { MemoryBridge, okResult } from '../test-support/memory-bridge';
import { App } from './App';
import { askFirstScreen } from './ask-first-screen';
import { appTestApis } from '../test-support/app-apis';

const { apiFor } = appTestApis();

describe('the first screen asked before the first render (issue 15)', () => {
  it('the list shows the rows asked at start, without asking the host again', async () => {
    const candidates = [agentCandidate({ externalId: 'c-1', title: 'Asked at start', cwd: '/home/dev/api', updatedAt: '2026-11-29T10:00:00Z' })];
    const bridge = new MemoryBridge()
      .handle('sessions:list', () => okResult([row({ id: 'b1', title: 'Baton one' })]))
      .handle('agents:list', () => okResult({ candidates, stats: { files: 1, ms: 1 }, total: 1, version: '1' }));
    const api = apiFor(bridge);
    askFirstScreen(api);
    expect([bridge.callsTo('agents:list'), bridge.callsTo('sessions:list')]).toEqual([1, 1]);
    render(<App api={api} />);
    await screen.findByRole('button', { name: /Asked at start/ });
    await screen.findByRole('button', { name: /Baton one/ });
    expect([bridge.callsTo('agents:list'), bridge.callsTo('sessions:list')]).toEqual([1, 1]);
  });
});
