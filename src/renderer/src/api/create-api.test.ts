// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detail, message, row } from '../test-support/fixtures';
import { errResult, MemoryBridge, okResult } from '../test-support/memory-bridge';
import { eventually, WsHost } from '../test-support/ws-host';
import { createApi } from './create-api';
import { TOKEN_STORAGE_KEY } from './token';
import type { BatonApi } from './types';
import { rejection } from '../test-support/rejection';

const apis: BatonApi[] = [];
function track(api: BatonApi): BatonApi {
  apis.push(api);
  return api;
}

function open(url: string): void {
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(url);
}

beforeEach(() => {
  window.sessionStorage.clear();
  delete window.baton;
});

afterEach(() => {
  for (const api of apis.splice(0)) api.close();
  delete window.baton;
});

describe('createApi over the Electron bridge (window.baton)', () => {
  it('uses window.baton when it exists and validates the answer', async () => {
    const bridge = new MemoryBridge().handle('session:get', () => okResult(detail('s1', [message(0)])));
    window.baton = bridge;
    const api = track(createApi());
    expect(api.kind).toBe('electron');
    expect(api.connection()).toEqual({ status: 'connected' });
    const value = await api.invoke('session:get', { id: 's1' });
    expect(value.session.id).toBe('s1');
    expect(value.messages).toHaveLength(1);
    expect(bridge.calls).toEqual([{ channel: 'session:get', payload: { id: 's1' } }]);
  });

  it('a host error keeps its code and message', async () => {
    window.baton = new MemoryBridge().handle('session:get', () => errResult('NOT_FOUND', 'Session zz was not found'));
    const error = await rejection(track(createApi()).invoke('session:get', { id: 'zz' }));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toBe('Session zz was not found');
  });

  it('an answer that is not a result, or a value off-contract, is BAD_RESPONSE', async () => {
    const bridge = new MemoryBridge().handle('sessions:list', () => ({ value: [] }) as never);
    window.baton = bridge;
    const api = track(createApi());
    expect((await rejection(api.invoke('sessions:list', {}))).code).toBe('BAD_RESPONSE');
    bridge.handle('sessions:list', () => okResult([row({ id: 's1', messageCount: -1 })]));
    const error = await rejection(api.invoke('sessions:list', {}));
    expect(error.code).toBe('BAD_RESPONSE');
    expect(error.message).toMatch(/0\.messageCount/);
  });

  it('a bridge that throws becomes BRIDGE_FAILED', async () => {
    window.baton = new MemoryBridge().handle('host:info', () => {
      throw new Error('Error invoking remote method');
    });
    const error = await rejection(track(createApi()).invoke('host:info', {}));
    expect(error.code).toBe('BRIDGE_FAILED');
    expect(error.message).toContain('Error invoking remote method');
  });

  it('events are validated and close() unsubscribes from the bridge', () => {
    const bridge = new MemoryBridge();
    window.baton = bridge;
    const api = track(createApi());
    const seen: unknown[] = [];
    api.on('session:changed', (payload) => seen.push(payload));
    bridge.emit('session:changed', { id: 's1', reason: 'append' });
    bridge.emit('session:changed', 'nonsense');
    expect(seen).toEqual([{ id: 's1', reason: 'append' }]);
    expect(bridge.listenerCount('session:changed')).toBe(1);
    api.close();
    expect(bridge.listenerCount('session:changed')).toBe(0);
  });
});

describe('createApi in a browser page (WebSocket)', () => {
  let host: WsHost;
  beforeEach(async () => {
    host = await WsHost.start();
  });
  afterEach(async () => {
    for (const api of apis.splice(0)) api.close();
    await host.close();
  });

  it('takes the token from the address, hides it, and connects to /ws with it', async () => {
    host.answer = () => okResult([row({ id: 's1' })]);
    open(`http://127.0.0.1:${host.port}/?token=t%2Bk`);
    const api = track(createApi({ ws: { backoff: { baseMs: 20, maxMs: 50, random: () => 1 } } }));
    expect(api.kind).toBe('browser');
    const rows = await api.invoke('sessions:list', {});
    expect(rows.map((r) => r.id)).toEqual(['s1']);
    expect(host.tokens).toEqual(['t+k']);
    expect(window.location.href).toBe(`http://127.0.0.1:${host.port}/`);
    expect(window.sessionStorage.getItem(TOKEN_STORAGE_KEY)).toBe('t+k');
    await eventually(() => expect(api.connection().status).toBe('connected'));
  });

  it('without a token it does not connect and says how to get one', async () => {
    open(`http://127.0.0.1:${host.port}/`);
    const api = track(createApi());
    expect(api.connection()).toEqual({ status: 'no-token' });
    const error = await rejection(api.invoke('sessions:list', {}));
    expect(error.code).toBe('NO_TOKEN');
    expect(error.message).toContain('baton serve');
    expect(host.tokens).toEqual([]);
  });
});
