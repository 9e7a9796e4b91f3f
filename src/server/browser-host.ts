import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { WsServerMessage } from '../shared/ui-contract.js';
import type { HostServices } from '../core/host/host-services.js';
import { readRendererFile } from '../core/static-files.js';
import { RENDERER_CSP } from '../shared/csp.js';
import { isLoopbackHost, isLoopbackOrigin } from '../shared/loopback-host.js';
import { markPhase } from '../core/perf/phase-trace.js';

/**
 * A built asset named by its content (`assets/index-Duv2UW02.js`): a new build names it anew, so
 * the browser may keep it. A reload then neither fetches the 545 KB bundle again nor recompiles it
 * (Chromium keeps compiled code only for cacheable scripts). The page itself (it names the assets)
 * and anything else are never stored.
 */
const HASHED_ASSET = /^\/assets\/[^/?#]+-[A-Za-z0-9_-]{8}\.(?:js|css|ttf|woff2?|wasm)$/;
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export function cacheControlFor(url: string): string {
  const path = url.split(/[?#]/)[0] ?? '/';
  return HASHED_ASSET.test(path) ? ASSET_CACHE_CONTROL : 'no-store';
}

/** Largest WebSocket message the browser host accepts from a page (requests are small). */
export const WS_MAX_PAYLOAD_BYTES = 1024 * 1024;

/**
 * Open WebSockets at once. One page holds one; a few tabs and the e2e suite need a handful. A
 * page that reconnects in a loop must not exhaust the host's sockets and memory.
 */
export const MAX_BROWSER_CONNECTIONS = 32;

/** Same policy as the renderer's meta tag, sent as a header so it also covers non-HTML responses. */
export const BROWSER_HOST_CSP = RENDERER_CSP;

/** What the browser host carries to its pages: a plain host's services, or a passphrase store's lockable host. */
export type UiHostServices = Pick<HostServices, 'token' | 'dispatch' | 'onUiEvent'>;

export interface BrowserHostOptions {
  services: UiHostServices;
  port: number;
  rendererDir?: string;
}

export interface BrowserHost {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * The built renderer, relative to this module both as TypeScript source (src/server) and bundled
 * into the CLI (dist/cli/baton.cjs): both sit two levels below the repository root.
 */
export function defaultRendererDir(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'out', 'renderer');
}

/**
 * The token in the page URL is derived from the endpoint token, so it is stable across restarts
 * (a bookmarked URL keeps working) while the socket token itself never leaves its 0600 file.
 */
export function browserToken(endpointToken: Buffer): string {
  return createHmac('sha256', endpointToken).update('baton browser host v1').digest('hex');
}

/**
 * `baton serve`: the UI contract over HTTP + WebSocket on 127.0.0.1 only. Host and Origin are
 * checked (against DNS rebinding and other local pages: loopback names only, any port so an
 * `ssh -L` tunnel works), and the WebSocket needs the token.
 */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const { services } = options;
  const rendererDir = options.rendererDir ?? defaultRendererDir();
  const token = browserToken(services.token);
  let port = 0;

  const http = createServer((request, response) => {
    void serveHttp(request, response);
  });
  async function serveHttp(request: IncomingMessage, response: ServerResponse) {
    response.setHeader('Content-Security-Policy', BROWSER_HOST_CSP);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Referrer-Policy', 'no-referrer');
    response.setHeader('X-Frame-Options', 'DENY');
    // Any port: through `ssh -L 9000:127.0.0.1:N` the browser names the tunnel's port (issue 22).
    if (!isLoopbackHost(request.headers.host)) return send(response, 421, 'text/plain', 'Baton answers only on 127.0.0.1, localhost and [::1].\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, 'text/plain', 'Method not allowed\n');
    if (!existsSync(rendererDir)) {
      return send(response, 503, 'text/plain', `The Baton UI is not built (${rendererDir} is missing). Run: npm run build\n`);
    }
    const file = await readRendererFile(rendererDir, request.url ?? '/');
    if (!file.found) return send(response, 404, 'text/plain', 'Not found\n');
    response.setHeader('Cache-Control', cacheControlFor(request.url ?? '/'));
    markPhase(`served ${request.url?.split('?')[0]?.split('/').pop() || '/'}`);
    send(response, 200, file.contentType, file.body);
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_MAX_PAYLOAD_BYTES });
  http.on('upgrade', (request, socket, head) => {
    // A peer that resets mid-handshake must not become an unhandled 'error' that ends the host.
    socket.on('error', () => socket.destroy());
    const url = new URL(request.url ?? '/', 'http://placeholder');
    // The page's own origin: loopback, and the same name and port the browser put in Host.
    const origin = request.headers.origin;
    if (url.pathname !== '/ws' || !isLoopbackHost(request.headers.host) || !isLoopbackOrigin(origin) || origin !== `http://${request.headers.host}` || !tokenMatches(url.searchParams.get('token'), token)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    if (wss.clients.size >= MAX_BROWSER_CONNECTIONS) {
      const body = `Baton already serves ${MAX_BROWSER_CONNECTIONS} pages; close a tab and reload.\n`;
      socket.end(`HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => bindSocket(ws));
  });

  function bindSocket(ws: WebSocket) {
    const unsubscribe = services.onUiEvent((event, payload) => sendWs(ws, { kind: 'event', event, payload }));
    ws.on('close', unsubscribe);
    // A frame ws refuses (over maxPayload, invalid UTF-8, RSV bits, unmasked) arrives here; ws has
    // already sent the close code. Without this listener it is an unhandled 'error' and the host dies.
    ws.on('error', () => ws.terminate());
    ws.on('message', (data) => {
      void answer(ws, data).catch(() => ws.terminate());
    });
  }

  async function answer(ws: WebSocket, data: RawData) {
    const { WsClientMessage } = await uiContract();
    let parsed;
    try {
      parsed = WsClientMessage.safeParse(JSON.parse(data.toString()));
    } catch {
      parsed = null;
    }
    if (!parsed?.success) {
      ws.close(1008, 'bad message');
      return;
    }
    const result = await services.dispatch(parsed.data.channel, parsed.data.payload);
    sendWs(ws, { kind: 'response', id: parsed.data.id, result });
  }

  await new Promise<void>((resolveListen, reject) => {
    http.once('error', reject);
    http.listen(options.port, '127.0.0.1', () => resolveListen());
  });
  port = (http.address() as AddressInfo).port;

  return {
    port,
    url: `http://127.0.0.1:${port}/?token=${token}`,
    async close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
      await new Promise<void>((done) => http.close(() => done()));
      http.closeAllConnections();
    },
  };
}

/**
 * The UI contract (zod and every channel's schemas), loaded at the first WebSocket message: `baton
 * serve` prints its address before its host services load, and the contract's module evaluation
 * is among the larger parts of that start (issue 15).
 */
let contract: Promise<typeof import('../shared/ui-contract.js')> | undefined;
function uiContract(): Promise<typeof import('../shared/ui-contract.js')> {
  contract ??= import('../shared/ui-contract.js');
  return contract;
}

function send(response: ServerResponse, status: number, contentType: string, body: string | Buffer) {
  response.writeHead(status, { 'Content-Type': contentType });
  response.end(body);
}

function sendWs(ws: WebSocket, message: WsServerMessage) {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
}

function tokenMatches(given: string | null, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
