// First: zod's setting must be made before the contract's schemas are (zod-jitless.ts).
import './zod-jitless';
import { WsServerMessage, type WsClientMessage } from '../../../shared/ui-contract';
import { ApiError, ClientErrorCode } from './api-error';
import { backoffDelay, defaultBackoff, type BackoffOptions } from './backoff';
import { ListenerSet } from './listener-set';
import type { ConnectionState, Transport } from './types';

/** A request waits this long for its answer, including time spent waiting for a connection. */
export const REQUEST_TIMEOUT_MS = 15_000;
/** Requests waiting for an answer at once; more means something is stuck, so fail loudly. */
export const MAX_PENDING_REQUESTS = 256;

const OPEN = 1;

/** The part of the WebSocket API the transport uses (browser, happy-dom and `ws` all provide it). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'close' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

export interface WsTransportOptions {
  url: string;
  createSocket?: (url: string) => WebSocketLike;
  backoff?: BackoffOptions;
  requestTimeoutMs?: number;
  /** A socket opened before the transport existed (early-connection.ts): its first connection. */
  early?: WebSocketLike;
}

interface Pending {
  channel: string;
  frame: string;
  sent: boolean;
  resolve: (raw: unknown) => void;
  reject: (error: ApiError) => void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * The browser host's transport: one WebSocket speaking the WsClientMessage/WsServerMessage
 * envelope, reconnecting with backoff when it drops. Requests made while disconnected wait for the
 * connection (up to the timeout); requests in flight when it drops fail with DISCONNECTED rather
 * than being re-sent, because the host may already have acted on them.
 */
export function createWsTransport(options: WsTransportOptions): Transport {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url) as WebSocketLike);
  const backoff = options.backoff ?? defaultBackoff;
  const timeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const events = new Map<string, ListenerSet<[unknown]>>();
  const connectionListeners = new ListenerSet<[ConnectionState]>();
  const pending = new Map<number, Pending>();
  let state: ConnectionState = { status: 'connecting' };
  let socket: WebSocketLike | null = null;
  let earlySocket = options.early;
  let nextId = 1;
  let attempt = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;
  let connectedBefore = false;

  function setState(next: ConnectionState): void {
    state = next;
    connectionListeners.emit(next);
  }

  function settle(id: number): Pending | undefined {
    const entry = pending.get(id);
    if (entry === undefined) return undefined;
    clearTimeout(entry.timer);
    pending.delete(id);
    return entry;
  }

  function connect(): void {
    reconnectTimer = null;
    let current: WebSocketLike;
    try {
      current = earlySocket ?? createSocket(options.url);
      earlySocket = undefined;
    } catch (error) {
      // A malformed URL throws synchronously; treat it like a refused connection.
      console.error('Baton: could not open the WebSocket', error);
      scheduleReconnect();
      return;
    }
    socket = current;
    current.addEventListener('open', () => {
      if (socket !== current) return;
      attempt = 0;
      connectedBefore = true;
      setState({ status: 'connected' });
      for (const entry of pending.values()) {
        if (!entry.sent) {
          current.send(entry.frame);
          entry.sent = true;
        }
      }
    });
    current.addEventListener('message', (event) => {
      if (socket === current) onMessage(event.data);
    });
    current.addEventListener('close', () => {
      if (socket !== current) return;
      socket = null;
      failInFlight();
      if (!closed) scheduleReconnect();
    });
    // 'error' is always followed by 'close', which does the work.
    current.addEventListener('error', () => undefined);
  }

  function failInFlight(): void {
    for (const [id, entry] of pending) {
      if (!entry.sent) continue;
      settle(id);
      entry.reject(
        new ApiError(ClientErrorCode.DISCONNECTED, `The connection to Baton dropped before "${entry.channel}" was answered. Try again once it is back.`, entry.channel),
      );
    }
  }

  function scheduleReconnect(): void {
    attempt += 1;
    const retryInMs = backoffDelay(attempt, backoff);
    setState({ status: 'reconnecting', attempt, retryInMs, connectedBefore });
    reconnectTimer = setTimeout(connect, retryInMs);
  }

  function onMessage(data: unknown): void {
    if (typeof data !== 'string') {
      console.warn('Baton: ignored a binary WebSocket frame');
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      console.warn('Baton: ignored a WebSocket frame that is not JSON');
      return;
    }
    const parsed = WsServerMessage.safeParse(json);
    if (!parsed.success) {
      // Fail the request it was meant for, if it names one, instead of letting it time out.
      const id = typeof json === 'object' && json !== null ? (json as { id?: unknown }).id : undefined;
      const entry = typeof id === 'number' ? settle(id) : undefined;
      if (entry !== undefined) {
        entry.reject(new ApiError(ClientErrorCode.BAD_RESPONSE, `Baton answered "${entry.channel}" with a malformed message.`, entry.channel));
      } else {
        console.warn('Baton: ignored a WebSocket frame outside the envelope', parsed.error.issues);
      }
      return;
    }
    const message = parsed.data;
    if (message.kind === 'event') {
      events.get(message.event)?.emit(message.payload);
      return;
    }
    const entry = settle(message.id);
    if (entry === undefined) {
      console.warn(`Baton: ignored an answer to unknown request ${message.id}`);
      return;
    }
    entry.resolve(message.result);
  }

  function request(channel: string, payload: unknown): Promise<unknown> {
    if (closed) {
      return Promise.reject(new ApiError(ClientErrorCode.DISCONNECTED, `The connection to Baton is closed; "${channel}" was not sent.`, channel));
    }
    if (pending.size >= MAX_PENDING_REQUESTS) {
      return Promise.reject(
        new ApiError(ClientErrorCode.TOO_MANY_REQUESTS, `${MAX_PENDING_REQUESTS} requests are already waiting for Baton; "${channel}" was not sent.`, channel),
      );
    }
    const id = nextId++;
    const message: WsClientMessage = { kind: 'request', id, channel, payload };
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (settle(id) === undefined) return;
        reject(new ApiError(ClientErrorCode.TIMEOUT, `Baton did not answer "${channel}" within ${Math.round(timeoutMs / 1000)} s.`, channel));
      }, timeoutMs);
      const entry: Pending = { channel, frame: JSON.stringify(message), sent: false, resolve, reject, timer };
      pending.set(id, entry);
      if (socket !== null && socket.readyState === OPEN) {
        socket.send(entry.frame);
        entry.sent = true;
      }
    });
  }

  /**
   * Final: the page closes its API when it is discarded (main.tsx, at pagehide). Its listeners are
   * dropped before the state turns 'closed', so nothing renders it again: told, the view re-rendered
   * synchronously (useSyncExternalStore) in the old page's pagehide, 25–45 ms on the way to the next
   * page's first row at a reload (issue 15, bench/README.md "Seventeenth sitting").
   */
  function close(): void {
    if (closed) return;
    closed = true;
    if (reconnectTimer !== null) clearTimeout(reconnectTimer);
    reconnectTimer = null;
    events.clear();
    connectionListeners.clear();
    const current = socket;
    socket = null;
    current?.close(1000, 'renderer closed');
    for (const [id, entry] of pending) {
      settle(id);
      entry.reject(new ApiError(ClientErrorCode.DISCONNECTED, `The connection to Baton was closed; "${entry.channel}" was not answered.`, entry.channel));
    }
    setState({ status: 'closed' });
  }

  connect();

  return {
    kind: 'browser',
    request,
    subscribe(event, listener) {
      let set = events.get(event);
      if (set === undefined) {
        set = new ListenerSet<[unknown]>();
        events.set(event, set);
      }
      return set.add(listener);
    },
    connection: () => state,
    onConnection: (listener) => connectionListeners.add(listener),
    close,
  };
}
