import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { eventually, WsHost } from '../test-support/ws-host';
import { row } from '../test-support/fixtures';
import { createApiFromTransport } from './create-api';
import { lateListeners } from './early-connection';
import type { BatonApi } from './types';
import { createWsTransport, type WebSocketLike } from './ws-transport';

// The `ws` client has the browser WebSocket's event API; it stands in for the page's WebSocket.
const pageSocket = (url: string) => new WebSocket(url) as unknown as globalThis.WebSocket;

let host: WsHost;
const apis: BatonApi[] = [];
let opened: string[];
const createSocket = (url: string): WebSocketLike => {
  opened.push(url);
  return new WebSocket(url) as unknown as WebSocketLike;
};

beforeEach(async () => {
  host = await WsHost.start();
  opened = [];
});

afterEach(async () => {
  for (const api of apis.splice(0)) api.close();
  await host.close();
});

describe('a socket opened before the transport (the page\'s first module)', () => {
  it('is adopted: no second socket, connected at once, and what the host sent before the transport listened is heard', async () => {
    const socket = lateListeners(pageSocket(host.url));
    await eventually(() => expect(socket.readyState).toBe(1));
    host.emit('session:changed', { id: 's0', reason: 'handoff' });
    // The event reaches the page before anyone listens (the app's modules are still evaluating).
    await new Promise((resolve) => setTimeout(resolve, 50));

    const api = createApiFromTransport(createWsTransport({ url: host.url, createSocket, early: socket }));
    apis.push(api);
    const heard: unknown[] = [];
    api.on('session:changed', (payload) => heard.push(payload));
    const states: string[] = [];
    api.onConnection((state) => states.push(state.status));
    host.answer = () => ({ ok: true, value: [row({ id: 's1' })] });

    const rows = await api.invoke('sessions:list', {});
    expect(rows.map((r) => r.id)).toEqual(['s1']);
    expect(heard).toEqual([{ id: 's0', reason: 'handoff' }]);
    expect(states).toEqual(['connected']);
    expect(opened).toEqual([]);
    expect(host.clientCount).toBe(1);
  });

  it('that closed before the transport listened: the transport hears the close and reconnects on its own socket', async () => {
    const refused = host.url.replace('/ws?', '/not-the-socket?');
    const early = pageSocket(refused);
    const closed = new Promise((resolve) => early.addEventListener('close', resolve));
    const socket = lateListeners(early);
    await closed;

    const api = createApiFromTransport(createWsTransport({ url: host.url, createSocket, early: socket, backoff: { baseMs: 10, maxMs: 20, random: () => 1 } }));
    apis.push(api);
    host.answer = () => ({ ok: true, value: [] });
    await expect(api.invoke('sessions:list', {})).resolves.toEqual([]);
    expect(opened).toEqual([host.url]);
  });
});
