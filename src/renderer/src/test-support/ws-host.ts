import { WebSocketServer, type WebSocket } from 'ws';
import type { AddressInfo } from 'node:net';

export type WsHandler = (channel: string, payload: unknown) => unknown;

/**
 * A real WebSocket server on 127.0.0.1 speaking the browser host's envelope, for tests only:
 * `answer` builds the raw `result` for each request (or `raw` sends any frame), `emit` sends an
 * event to every client, `dropClients` cuts every connection as a crashed host would.
 */
export class WsHost {
  readonly server: WebSocketServer;
  readonly requests: Array<{ channel: string; payload: unknown; id: unknown }> = [];
  readonly tokens: string[] = [];
  answer: (channel: string, payload: unknown, id: number) => unknown = () => ({ ok: false, error: { code: 'UNKNOWN_METHOD', message: 'no handler' } });
  /** When set, replaces the whole reply frame (to test malformed envelopes). */
  raw: ((id: number) => string) | null = null;
  /** Requests for these channels get no answer at all. */
  readonly silent = new Set<string>();

  private constructor(server: WebSocketServer) {
    this.server = server;
    server.on('connection', (socket, request) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      this.tokens.push(url.searchParams.get('token') ?? '');
      socket.on('message', (data) => this.#onMessage(socket, String(data)));
    });
  }

  static async start(port = 0): Promise<WsHost> {
    const server = new WebSocketServer({ host: '127.0.0.1', port, path: '/ws' });
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
    return new WsHost(server);
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `ws://127.0.0.1:${this.port}/ws?token=test-token`;
  }

  get clientCount(): number {
    return this.server.clients.size;
  }

  #onMessage(socket: WebSocket, text: string): void {
    const message = JSON.parse(text) as { id: number; channel: string; payload: unknown };
    this.requests.push({ channel: message.channel, payload: message.payload, id: message.id });
    if (this.silent.has(message.channel)) return;
    if (this.raw !== null) {
      socket.send(this.raw(message.id));
      return;
    }
    socket.send(JSON.stringify({ kind: 'response', id: message.id, result: this.answer(message.channel, message.payload, message.id) }));
  }

  emit(event: string, payload: unknown): void {
    for (const client of this.server.clients) client.send(JSON.stringify({ kind: 'event', event, payload }));
  }

  sendRaw(frame: string): void {
    for (const client of this.server.clients) client.send(frame);
  }

  /** Closes every client connection abruptly, leaving the server listening. */
  dropClients(): void {
    for (const client of this.server.clients) client.terminate();
  }

  async close(): Promise<void> {
    for (const client of this.server.clients) client.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Polls until `check` passes (or throws its last error after `timeoutMs`): for real sockets, no sleeps. */
export async function eventually(check: () => void, timeoutMs = 5_000, stepMs = 10): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, stepMs));
    }
  }
}
