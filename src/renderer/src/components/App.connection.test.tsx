// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiFromTransport, createWsTransport, type BatonApi } from '../api';
import { createNoTokenTransport } from '../api/no-token-transport';
import { row } from '../test-support/fixtures';
import { WsHost } from '../test-support/ws-host';
import { App } from './App';

let host: WsHost;
const apis: BatonApi[] = [];

beforeEach(async () => {
  window.history.replaceState(null, '', '/');
  host = await WsHost.start();
});

afterEach(async () => {
  cleanup();
  for (const api of apis.splice(0)) api.close();
  await host.close();
});

describe('App over a real WebSocket host', () => {
  it('shows a reconnecting banner when the host drops, and refreshes once it is back', async () => {
    let rows = [row({ id: 's1', title: 'Before the drop' })];
    host.answer = (channel) =>
      channel === 'sessions:list' ? { ok: true, value: rows } : { ok: true, value: { host: 'browser', version: '0.1.0', dataDir: '/d', endpoint: '/e' } };
    const api = createApiFromTransport(createWsTransport({ url: host.url, backoff: { baseMs: 150, maxMs: 300, random: () => 1 } }));
    apis.push(api);
    render(<App api={api} />);
    await screen.findByRole('button', { name: /Before the drop/ });
    expect(screen.queryByTestId('connection-banner')).toBeNull();

    // The host restarts: a change made meanwhile sends no event, so the UI must re-fetch on reconnect.
    rows = [...rows, row({ id: 's2', title: 'Made while disconnected', updatedAt: '2026-11-29T11:00:00Z' })];
    act(() => host.dropClients());
    const banner = await screen.findByTestId('connection-banner');
    expect(banner.textContent).toMatch(/Reconnecting/);
    expect(banner.getAttribute('role')).toBe('status');
    // The list stays on screen while disconnected.
    expect(screen.getByRole('button', { name: /Before the drop/ })).toBeTruthy();

    await screen.findByRole('button', { name: /Made while disconnected/ }, { timeout: 5_000 });
    await waitFor(() => expect(screen.queryByTestId('connection-banner')).toBeNull());
  });

  it('live events from the host update the list', async () => {
    let rows = [row({ id: 's1', title: 'One' })];
    host.answer = (channel) => (channel === 'sessions:list' ? { ok: true, value: rows } : { ok: false, error: { code: 'UNKNOWN_METHOD', message: 'n/a' } });
    const api = createApiFromTransport(createWsTransport({ url: host.url }));
    apis.push(api);
    render(<App api={api} />);
    await screen.findByRole('button', { name: /One/ });
    rows = [...rows, row({ id: 's2', title: 'Two', cwd: '/elsewhere' })];
    act(() => host.emit('session:changed', { id: 's2', reason: 'handoff' }));
    await screen.findByRole('button', { name: /Two/ });
    expect(screen.getAllByTestId('session-group')).toHaveLength(2);
  });
});

describe('App without a token', () => {
  it('tells the person to open the address baton serve printed', async () => {
    const api = createApiFromTransport(createNoTokenTransport());
    apis.push(api);
    render(<App api={api} />);
    expect(screen.getByTestId('connection-banner').textContent).toContain('baton serve');
    const error = await screen.findByTestId('error-state');
    expect(error.textContent).toContain('NO_TOKEN');
  });
});
