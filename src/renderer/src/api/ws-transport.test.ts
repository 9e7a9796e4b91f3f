import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { eventually, WsHost } from '../test-support/ws-host';
import { row } from '../test-support/fixtures';
import { createApiFromTransport } from './create-api';
import type { BatonApi, ConnectionState } from './types';
import { createWsTransport, type WebSocketLike, type WsTransportOptions } from './ws-transport';
import { rejection } from '../test-support/rejection';

// The `ws` client has the browser WebSocket's event API; it stands in for the page's WebSocket.
const createSocket = (url: string): WebSocketLike => new WebSocket(url) as unknown as WebSocketLike;
const fastBackoff = { baseMs: 20, maxMs: 80, random: () => 1 };

let host: WsHost;
const apis: BatonApi[] = [];

function connect(options: Partial<WsTransportOptions> = {}): BatonApi {
  const api = createApiFromTransport(createWsTransport({ createSocket, backoff: fastBackoff, ...options, url: options.url ?? host.url }));
  apis.push(api);
  return api;
}

beforeEach(async () => {
  host = await WsHost.start();
});

afterEach(async () => {
  for (const api of apis.splice(0)) api.close();
  await host.close();
});

describe('WebSocket transport', () => {
  it('sends the request envelope and resolves with the validated answer', async () => {
    host.answer = (channel) => (channel === 'sessions:list' ? { ok: true, value: [row({ id: 's1' })] } : { ok: false, error: { code: 'X', message: 'x' } });
    const api = connect();
    const rows = await api.invoke('sessions:list', {});
    expect(rows.map((r) => r.id)).toEqual(['s1']);
    expect(host.requests).toEqual([{ channel: 'sessions:list', payload: {}, id: 1 }]);
    expect(host.tokens).toEqual(['test-token']);
    expect(api.connection()).toEqual({ status: 'connected' });
  });

  it('matches answers to requests by id when they come back out of order', async () => {
    host.silent.add('session:get');
    const api = connect();
    const slow = api.invoke('session:get', { id: 'a' });
    host.answer = () => ({ ok: true, value: { host: 'browser', version: '1', dataDir: '/d', endpoint: '/e' } });
    const info = await api.invoke('host:info', {});
    expect(info.host).toBe('browser');
    // Now answer the first request, after the second one was answered.
    const getRequest = host.requests.find((r) => r.channel === 'session:get');
    host.sendRaw(
      JSON.stringify({
        kind: 'response',
        id: getRequest?.id,
        result: { ok: false, error: { code: 'NOT_FOUND', message: 'Session a was not found' } },
      }),
    );
    const error = await rejection(slow);
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toBe('Session a was not found');
    expect(error.channel).toBe('session:get');
  });

  it('a host error becomes an ApiError with the host’s code', async () => {
    host.answer = () => ({ ok: false, error: { code: 'IO_ERROR', message: 'index.json unreadable at /data/index.json' } });
    const error = await rejection(connect().invoke('sessions:list', {}));
    expect(error.code).toBe('IO_ERROR');
    expect(error.message).toContain('/data/index.json');
  });

  it('a value that breaks the contract becomes BAD_RESPONSE naming the path', async () => {
    host.answer = () => ({ ok: true, value: [{ id: 's1', cwd: 42 }] });
    const error = await rejection(connect().invoke('sessions:list', {}));
    expect(error.code).toBe('BAD_RESPONSE');
    expect(error.message).toMatch(/sessions:list/);
    expect(error.message).toMatch(/0\.cwd/);
  });

  it('a malformed envelope fails the request it names instead of hanging', async () => {
    host.raw = (id) => JSON.stringify({ kind: 'response', id, result: 'yes' });
    const error = await rejection(connect({ requestTimeoutMs: 10_000 }).invoke('sessions:list', {}));
    expect(error.code).toBe('BAD_RESPONSE');
  });

  it('garbage frames are ignored; the connection keeps working', async () => {
    host.answer = () => ({ ok: true, value: [] });
    const api = connect();
    await api.invoke('sessions:list', {});
    host.sendRaw('not json at all');
    host.sendRaw(JSON.stringify({ kind: 'mystery' }));
    await expect(api.invoke('sessions:list', {})).resolves.toEqual([]);
  });

  it('times out a request the host never answers', async () => {
    host.silent.add('sessions:list');
    const error = await rejection(connect({ requestTimeoutMs: 100 }).invoke('sessions:list', {}));
    expect(error.code).toBe('TIMEOUT');
  });

  it('refuses a request the contract does not allow, without sending it', async () => {
    const api = connect();
    const error = await rejection(api.invoke('session:get', { id: 7 } as unknown as { id: string }));
    expect(error.code).toBe('BAD_REQUEST');
    expect(host.requests).toHaveLength(0);
  });

  it('delivers events, validated, to the listeners of that event only', async () => {
    host.answer = () => ({ ok: true, value: [] });
    const api = connect();
    const changed: unknown[] = [];
    const selected: unknown[] = [];
    api.on('session:changed', (payload) => changed.push(payload));
    const off = api.on('session:select', (payload) => selected.push(payload));
    await api.invoke('sessions:list', {});
    host.emit('session:changed', { id: 's1', reason: 'handoff' });
    host.emit('session:changed', { id: 42 });
    host.emit('session:select', { id: 's1' });
    await eventually(() => expect(selected).toEqual([{ id: 's1' }]));
    off();
    host.emit('session:select', { id: 's2' });
    host.emit('session:changed', { id: 's3', reason: 'append' });
    await eventually(() => expect(changed).toEqual([{ id: 's1', reason: 'handoff' }, { id: 's3', reason: 'append' }]));
    expect(selected).toEqual([{ id: 's1' }]);
  });

  it('reconnects after a drop: reports reconnecting, fails the request in flight, then works again', async () => {
    host.answer = () => ({ ok: true, value: [] });
    const api = connect();
    const states: ConnectionState['status'][] = [];
    let dropped = false;
    api.onConnection((state) => {
      states.push(state.status);
      if (state.status === 'reconnecting') dropped = state.connectedBefore;
    });
    await api.invoke('sessions:list', {});

    host.silent.add('session:get');
    const inFlight = api.invoke('session:get', { id: 'a' });
    await eventually(() => expect(host.requests.some((r) => r.channel === 'session:get')).toBe(true));
    host.dropClients();
    expect((await rejection(inFlight)).code).toBe('DISCONNECTED');

    await eventually(() => expect(api.connection().status).toBe('connected'));
    expect(states).toContain('reconnecting');
    expect(dropped).toBe(true);
    expect(states.at(-1)).toBe('connected');
    await expect(api.invoke('sessions:list', {})).resolves.toEqual([]);
    expect(host.tokens).toEqual(['test-token', 'test-token']);
  });

  it('keeps retrying while the host is down and sends queued requests once it is back', async () => {
    const port = host.port;
    await host.close();
    const api = connect({ url: `ws://127.0.0.1:${port}/ws?token=test-token`, requestTimeoutMs: 10_000 });
    const attempts: number[] = [];
    const connectedBefore = new Set<boolean>();
    api.onConnection((state) => {
      if (state.status !== 'reconnecting') return;
      attempts.push(state.attempt);
      connectedBefore.add(state.connectedBefore);
    });
    const queued = api.invoke('sessions:list', {});
    await eventually(() => expect(attempts.length).toBeGreaterThanOrEqual(3));
    expect(attempts.slice(0, 3)).toEqual([1, 2, 3]);
    // Never connected: the banner says the host is not reachable, not that it was lost.
    expect([...connectedBefore]).toEqual([false]);

    host = await WsHost.start(port);
    host.answer = () => ({ ok: true, value: [row({ id: 'back' })] });
    const rows = await queued;
    expect(rows.map((r) => r.id)).toEqual(['back']);
    expect(api.connection().status).toBe('connected');
  });

  it('close() tells none of its listeners: the page that closes it is being discarded and must not render again', async () => {
    const api = connect();
    await eventually(() => expect(api.connection().status).toBe('connected'));
    const told: string[] = [];
    api.onConnection((state) => told.push(state.status));
    api.close();
    expect(api.connection().status).toBe('closed');
    // Before: ['closed'], and the view re-rendered in the old page's pagehide (a reload's first row 25–45 ms later).
    expect(told).toEqual([]);
  });

  it('close() rejects what is pending, stops reconnecting and leaves no client behind', async () => {
    host.silent.add('sessions:list');
    const api = connect();
    const pending = api.invoke('sessions:list', {});
    await eventually(() => expect(host.requests).toHaveLength(1));
    api.close();
    expect((await rejection(pending)).code).toBe('DISCONNECTED');
    expect(api.connection().status).toBe('closed');
    await eventually(() => expect(host.clientCount).toBe(0));
    expect((await rejection(api.invoke('sessions:list', {}))).code).toBe('DISCONNECTED');
    // No reconnect after an intentional close.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(host.tokens).toHaveLength(1);
  });
});
