import { safeSessionStorage, takeToken, wsUrlFor } from './token';
import type { WebSocketLike } from './ws-transport';

/**
 * The browser host's WebSocket, opened by the page's first module (open-early-connection.ts)
 * before React, zod and the UI contract evaluate (~100 ms of a new page's main thread): its
 * handshake is done by the time they are, so the first screen's requests go out at once instead
 * of after a round trip to the host begun only then (issue 15). The WebSocket transport adopts it
 * (createApi). Imports no zod, and nothing the lazy views' chunks share: such a module makes the
 * bundler move the contract into a chunk of its own, which the entry then evaluates first.
 */
export interface EarlyConnection {
  /** The socket's address, the token in it. */
  url: string;
  /** The socket; events that fire before the transport listens wait for it (lateListeners). */
  socket: WebSocketLike;
}

type SocketEvent = 'open' | 'message' | 'close' | 'error';
const SOCKET_EVENTS: readonly SocketEvent[] = ['open', 'message', 'close', 'error'];

/**
 * The socket with its events kept until someone listens: the transport is created only after the
 * page's modules have evaluated, and a socket may have opened or closed by then. Each kind's
 * events so far are handed, in order and on a microtask, to its first listener.
 */
export function lateListeners(socket: WebSocket): WebSocketLike {
  const listeners = new Map<SocketEvent, Array<(event: { data: unknown }) => void>>();
  const held = new Map<SocketEvent, Array<{ data: unknown }>>();
  for (const type of SOCKET_EVENTS) {
    socket.addEventListener(type, (event) => {
      const data = { data: (event as MessageEvent).data };
      const current = listeners.get(type);
      if (current === undefined) held.set(type, [...(held.get(type) ?? []), data]);
      else for (const listener of current) listener(data);
    });
  }
  return {
    get readyState() {
      return socket.readyState;
    },
    send: (data) => socket.send(data),
    close: (code, reason) => socket.close(code, reason),
    addEventListener(type: SocketEvent, listener: (event: { data: unknown }) => void) {
      const current = listeners.get(type) ?? [];
      listeners.set(type, [...current, listener]);
      const waiting = held.get(type);
      if (current.length > 0 || waiting === undefined) return;
      held.delete(type);
      queueMicrotask(() => {
        for (const event of waiting) listener(event);
      });
    },
  };
}

let opened: EarlyConnection | undefined;

/** Opens the browser host's socket; nothing in Electron (its bridge carries requests) or without a token (the page says how to get one). */
export function openEarlyConnection(win: Window): void {
  if (win.baton !== undefined || opened !== undefined) return;
  const token = takeToken({ location: win.location, history: win.history, sessionStorage: safeSessionStorage(win) });
  if (token === null) return;
  const url = wsUrlFor(win.location, token);
  try {
    opened = { url, socket: lateListeners(new (win as Window & typeof globalThis).WebSocket(url)) };
  } catch {
    // A malformed address: the transport opens its own socket and reports the failure.
  }
}

/** The connection openEarlyConnection made, once (createApi adopts it); undefined after, or without one. */
export function takeEarlyConnection(): EarlyConnection | undefined {
  const connection = opened;
  opened = undefined;
  return connection;
}
