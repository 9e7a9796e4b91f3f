import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { eventually, WsHost } from '../test-support/ws-host';
import { row } from '../test-support/fixtures';
import { createApiFromTransport } from './create-api';
import { lateListeners, openEarlyConnection, takeEarlyConnection } from './early-connection';
import { FIRST_SCREEN_QUERY } from '../../../shared/first-screen';
import { FIRST_SCREEN_REQUESTS } from '../../../shared/first-screen-requests';
import { AGENT_FIRST_PAGE } from '../../../shared/agents';
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

describe('the first screen asked in the early socket\'s address (issue 15)', () => {
  const agentsAsked = FIRST_SCREEN_REQUESTS.find((r) => r.channel === 'agents:list')!;
  const sessionsAsked = FIRST_SCREEN_REQUESTS.find((r) => r.channel === 'sessions:list')!;
  const firstPage = { candidates: [], stats: { files: 0, ms: 0 }, total: 0, version: 'v1' };

  it("is taken by the transport: the page's identical requests are never written, its next request's id follows the reserved ones", async () => {
    const socket = lateListeners(pageSocket(`${host.url}&${FIRST_SCREEN_QUERY}`));
    await eventually(() => expect(host.clientCount).toBe(1));
    // The host answers before the transport exists, as the browser host does while the page's modules evaluate.
    host.sendRaw(JSON.stringify({ kind: 'response', id: agentsAsked.id, result: { ok: true, value: firstPage } }));
    host.sendRaw(JSON.stringify({ kind: 'response', id: sessionsAsked.id, result: { ok: true, value: [row({ id: 's1' })] } }));
    await new Promise((resolve) => setTimeout(resolve, 50));

    const api = createApiFromTransport(createWsTransport({ url: host.url, createSocket, early: socket, urlAsked: FIRST_SCREEN_REQUESTS }));
    apis.push(api);
    await expect(api.invoke('agents:list', { offset: 0, limit: AGENT_FIRST_PAGE })).resolves.toEqual(firstPage);
    await expect(api.invoke('sessions:list', {})).resolves.toMatchObject([{ id: 's1' }]);
    expect(host.requests).toEqual([]);
    // Asked again: the address's answer is taken once; this one is written, under the first free id.
    host.answer = () => ({ ok: true, value: firstPage });
    await api.invoke('agents:list', { offset: 0, limit: AGENT_FIRST_PAGE });
    expect(host.requests).toEqual([{ channel: 'agents:list', payload: { offset: 0, limit: AGENT_FIRST_PAGE }, id: Math.max(...FIRST_SCREEN_REQUESTS.map((r) => r.id)) + 1 }]);
    expect(opened).toEqual([]);
  });

  it('on an early socket refused before it opened: the asked requests are written on the reconnect, whose address asks nothing', async () => {
    const refused = `${host.url.replace('/ws?', '/not-the-socket?')}&${FIRST_SCREEN_QUERY}`;
    const early = pageSocket(refused);
    const closed = new Promise((resolve) => early.addEventListener('close', resolve));
    const socket = lateListeners(early);
    await closed;
    host.answer = (channel) => ({ ok: true, value: channel === 'agents:list' ? firstPage : [] });
    const api = createApiFromTransport(createWsTransport({ url: host.url, createSocket, early: socket, urlAsked: FIRST_SCREEN_REQUESTS, backoff: { baseMs: 10, maxMs: 20, random: () => 1 } }));
    apis.push(api);
    await expect(api.invoke('agents:list', { offset: 0, limit: AGENT_FIRST_PAGE })).resolves.toEqual(firstPage);
    await expect(api.invoke('sessions:list', {})).resolves.toEqual([]);
    expect(opened).toEqual([host.url]);
    expect(host.requests.map((r) => [r.channel, r.id])).toEqual(FIRST_SCREEN_REQUESTS.map((r) => [r.channel, r.id]));
  });

  it('an asked answer nobody takes is no unhandled rejection, and the page\'s own requests still get answers', async () => {
    const socket = lateListeners(pageSocket(`${host.url}&${FIRST_SCREEN_QUERY}`));
    await eventually(() => expect(host.clientCount).toBe(1));
    host.sendRaw(JSON.stringify({ kind: 'response', id: agentsAsked.id, result: { ok: false, error: { code: 'STORE_LOCKED', message: 'locked' } } }));
    host.answer = () => ({ ok: true, value: firstPage });
    const api = createApiFromTransport(createWsTransport({ url: host.url, createSocket, early: socket, urlAsked: FIRST_SCREEN_REQUESTS }));
    apis.push(api);
    // Another page than the asked one: written and answered.
    await expect(api.invoke('agents:list', { offset: 0, limit: 50 })).resolves.toEqual(firstPage);
    expect(host.requests.map((r) => r.payload)).toEqual([{ offset: 0, limit: 50 }]);
  });
});

describe('openEarlyConnection', () => {
  it("asks the first screen in its socket's address only: a reconnect's address asks nothing (issue 15)", () => {
    const created: string[] = [];
    const win = {
      location: new URL(`http://127.0.0.1:4000/?token=${'a'.repeat(64)}`),
      history: { state: null, replaceState: () => undefined },
      sessionStorage: undefined,
      WebSocket: class {
        constructor(url: string) {
          created.push(url);
        }
        addEventListener() {}
      },
    } as unknown as Window;
    openEarlyConnection(win);
    const early = takeEarlyConnection();
    expect(early?.url).toBe(`ws://127.0.0.1:4000/ws?token=${'a'.repeat(64)}`);
    expect(created).toEqual([`${early?.url}&${FIRST_SCREEN_QUERY}`]);
    expect(early?.asksFirstScreen).toBe(true);
  });
});
