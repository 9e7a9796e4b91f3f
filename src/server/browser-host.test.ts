import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BROWSER_HOST_CAPABILITIES } from '../core/host/capabilities.js';
import { startHostServices, type HostServices } from '../core/host/host-services.js';
import { pbkdf2, pbkdf2Sync } from 'node:crypto';
import { ASSET_CACHE_CONTROL, BROWSER_HOST_CSP, browserToken, cacheControlFor, startBrowserHost, type BrowserHost } from './browser-host.js';
import { SYNC_STATIC_MAX_BYTES } from '../core/static-files.js';

/**
 * The real `baton serve` stack on 127.0.0.1: Host and Origin checks against DNS rebinding and other
 * local pages, the token on the WebSocket, and the static renderer behind them.
 */
let scratch: string;
let services: HostServices;
let host: BrowserHost;
let token: string;
let origin: string;
const savedRuntimeDir = process.env.XDG_RUNTIME_DIR;

beforeAll(async () => {
  delete process.env.XDG_RUNTIME_DIR;
  scratch = await mkdtemp(join(tmpdir(), 'baton-bh-'));
  const rendererDir = join(scratch, 'renderer');
  await mkdir(join(rendererDir, 'assets'), { recursive: true });
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Baton</title>');
  await writeFile(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(rendererDir, 'assets', 'app-AbCd_f12.js'), 'console.log(2)');
  await writeFile(join(scratch, 'secret.txt'), 'secret');
  // An entry chunk's size (served on the host's thread) and a Monaco-sized one (over the limit).
  await writeFile(join(rendererDir, 'assets', 'index-AbCd_f12.js'), 'x'.repeat(400 * 1024));
  await writeFile(join(rendererDir, 'assets', 'editor-AbCd_f12.js'), 'y'.repeat(SYNC_STATIC_MAX_BYTES + 1));
  services = await startHostServices({ dataDir: join(scratch, 'data'), kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
  host = await startBrowserHost({ services, port: 0, rendererDir });
  token = browserToken(services.token);
  origin = `http://127.0.0.1:${host.port}`;
});
afterAll(async () => {
  await host?.close();
  await services?.close();
  await rm(scratch, { recursive: true, force: true });
  if (savedRuntimeDir !== undefined) process.env.XDG_RUNTIME_DIR = savedRuntimeDir;
});

interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request to the host's socket with exactly the given Host header (fetch cannot set Host). */
function get(path: string, hostHeader: string, method = 'GET'): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: host.port, path, method, headers: { Host: hostHeader } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens the WebSocket with the given Host, Origin and URL; resolves with the socket or the refusal status. */
function openWs(options: { path?: string; hostHeader?: string; origin?: string | null }): Promise<{ ws: WebSocket } | { refused: number }> {
  const path = options.path ?? `/ws?token=${token}`;
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: options.hostHeader ?? `127.0.0.1:${host.port}` };
    if (options.origin !== null) headers.Origin = options.origin ?? origin;
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}${path}`, { headers });
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ refused: res.statusCode ?? 0 });
      res.resume();
    });
    ws.once('error', (error) => {
      const status = /Unexpected server response: (\d+)/.exec(error.message);
      if (status) resolve({ refused: Number(status[1]) });
      else reject(error);
    });
  });
}

function raw(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(host.port, '127.0.0.1', () => socket.end(bytes));
    let reply = '';
    socket.on('data', (d) => (reply += d));
    socket.on('close', () => resolve(reply));
    socket.on('error', reject);
  });
}

function nextMessage(ws: WebSocket): Promise<Record<string, unknown>> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(JSON.parse(data.toString()) as Record<string, unknown>)));
}

describe('browser host over HTTP', () => {
  it('serves the renderer on 127.0.0.1 and localhost with the CSP and hardening headers', async () => {
    for (const name of ['127.0.0.1', 'localhost']) {
      const answer = await get('/', `${name}:${host.port}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toContain('<title>Baton</title>');
      expect(answer.headers).toMatchObject({
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': BROWSER_HOST_CSP,
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-store',
      });
    }
    expect(BROWSER_HOST_CSP).toContain("frame-ancestors 'none'");
    expect((await get('/assets/app.js', `127.0.0.1:${host.port}`)).headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('lets the browser keep a content-named asset, never the page or an unnamed file', async () => {
    expect(cacheControlFor('/assets/index-Duv2UW02.js')).toBe(ASSET_CACHE_CONTROL);
    expect(cacheControlFor('/assets/index-By200UwQ.css?x=1')).toBe(ASSET_CACHE_CONTROL);
    expect(cacheControlFor('/assets/codicon-DF1abBS2.ttf')).toBe(ASSET_CACHE_CONTROL);
    for (const url of ['/', '/?token=abc', '/index.html', '/assets/app.js', '/assets/index-Duv2UW0.js', '/assets/x-Duv2UW02.js/../../index.html', '/other/index-Duv2UW02.js', '/assets/index-Duv2UW02.html']) {
      expect(cacheControlFor(url), url).toBe('no-store');
    }
    expect((await get('/assets/app.js', `127.0.0.1:${host.port}`)).headers['cache-control']).toBe('no-store');
    const hashed = await get('/assets/app-AbCd_f12.js', `127.0.0.1:${host.port}`);
    expect(hashed.status).toBe(200);
    expect(hashed.headers).toMatchObject({ 'cache-control': ASSET_CACHE_CONTROL, 'content-security-policy': BROWSER_HOST_CSP });
    // A missing asset is not kept either.
    expect((await get('/assets/gone-AbCd_f12.js', `127.0.0.1:${host.port}`)).headers['cache-control']).not.toBe(ASSET_CACHE_CONTROL);
  });

  it("serves the page's start-up files while a cold scan holds every libuv thread; a Monaco-sized file waits (issue 15)", async () => {
    // Each pbkdf2 holds one of libuv's threads, as the cold scan's thousands of stats and reads do:
    // sized to ~0.6 s of one core here, measured on this machine now so the load does not decide the outcome.
    const t = performance.now();
    pbkdf2Sync('p', 's', 20_000, 32, 'sha512');
    const iterations = Math.max(20_000, Math.round((20_000 * 600) / Math.max(1, performance.now() - t)));
    const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
    let freed = 0;
    const busy = Array.from({ length: threads }, () => new Promise<void>((done) => pbkdf2('p', 's', iterations, 32, 'sha512', () => done(void freed++))));
    const hostName = `127.0.0.1:${host.port}`;
    const [page, entry] = await Promise.all([get('/', hostName), get('/assets/index-AbCd_f12.js', hostName)]);
    expect(freed).toBe(0);
    expect(page.body).toContain('<title>Baton</title>');
    expect([entry.status, entry.body.length]).toEqual([200, 400 * 1024]);
    // The baseline that shows the threads were held: the large file is read asynchronously, after them.
    const editor = await get('/assets/editor-AbCd_f12.js', hostName);
    expect(freed).toBeGreaterThan(0);
    expect([editor.status, editor.body.length, editor.headers['cache-control']]).toEqual([200, SYNC_STATIC_MAX_BYTES + 1, ASSET_CACHE_CONTROL]);
    await Promise.all(busy);
  });

  it.each([
    ['another site', 'evil.example'],
    ['a DNS-rebinding name on our port', 'rebind.attacker.example:__PORT__'],
    ['our address without the port', '127.0.0.1'],
    ['0.0.0.0', '0.0.0.0'],
    ['an IPv6 loopback without the port', '[::1]'],
    ['localhost with a trailing dot', 'localhost.:__PORT__'],
  ])('refuses %s as Host with 421, CSP still sent', async (_what, hostHeader) => {
    const answer = await get('/', hostHeader.replace('__PORT__', String(host.port)));
    expect(answer.status).toBe(421);
    expect(answer.body).not.toContain('<title>Baton</title>');
    expect(answer.headers['content-security-policy']).toBe(BROWSER_HOST_CSP);
  });

  it.each(['127.0.0.1:1', 'localhost:9000', '[::1]:9000'])('serves %s: a loopback name on another port is an ssh -L tunnel (issue 22)', async (hostHeader) => {
    const answer = await get('/', hostHeader);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('<title>Baton</title>');
  });

  it('a DNS-rebinding request with the right port but a foreign name never reaches a file', async () => {
    const answer = await get('/assets/app.js', `rebind.attacker.example:${host.port}`);
    expect(answer.status).toBe(421);
  });

  it('refuses a request with an empty or no Host header (raw bytes, as a client other than a browser could send)', async () => {
    for (const head of ['GET / HTTP/1.1\r\nHost: \r\n', 'GET / HTTP/1.0\r\n']) {
      const reply = await raw(`${head}Connection: close\r\n\r\n`);
      expect(reply).toMatch(/^HTTP\/1\.[01] (400|421) /);
      expect(reply).not.toContain('<title>Baton</title>');
    }
  });

  it('answers only GET and HEAD', async () => {
    expect((await get('/', `127.0.0.1:${host.port}`, 'POST')).status).toBe(405);
    expect((await get('/', `127.0.0.1:${host.port}`, 'HEAD')).status).toBe(200);
  });

  it.each(['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/ws', '/missing'])('404 for %j', async (path) => {
    const answer = await get(path, `127.0.0.1:${host.port}`);
    expect(answer.status).toBe(404);
    expect(answer.body).not.toContain('secret');
  });

  it('serves no data over HTTP: sessions only travel on the token-checked WebSocket', async () => {
    for (const path of ['/api/sessions', '/sessions:list', `/?token=${token}&channel=sessions:list`]) {
      const answer = await get(path, `127.0.0.1:${host.port}`);
      expect(answer.body).not.toContain('"ok"');
    }
  });
});

describe('browser host WebSocket upgrade', () => {
  it('opens with the right Host, Origin and token, and answers a UI request', async () => {
    const opened = await openWs({});
    expect('ws' in opened).toBe(true);
    if (!('ws' in opened)) return;
    const answer = nextMessage(opened.ws);
    opened.ws.send(JSON.stringify({ kind: 'request', id: 1, channel: 'host:info', payload: {} }));
    expect(await answer).toMatchObject({ kind: 'response', id: 1, result: { ok: true, value: { host: 'browser' } } });
    const event = nextMessage(opened.ws);
    services.emitUiEvent('session:select', { id: 's-1' });
    expect(await event).toEqual({ kind: 'event', event: 'session:select', payload: { id: 's-1' } });
    opened.ws.close();
  });

  it('opens through an ssh -L tunnel: Host and Origin name the tunnel port, not ours (issue 22)', async () => {
    const opened = await openWs({ hostHeader: 'localhost:9000', origin: 'http://localhost:9000' });
    expect('ws' in opened).toBe(true);
    if ('ws' in opened) opened.ws.close();
  });

  it('opens from a localhost page too', async () => {
    const opened = await openWs({ hostHeader: `localhost:${host.port}`, origin: `http://localhost:${host.port}` });
    expect('ws' in opened).toBe(true);
    if ('ws' in opened) opened.ws.close();
  });

  it.each([
    ['no token', { path: '/ws' }],
    ['an empty token', { path: '/ws?token=' }],
    ['a wrong token of the right length', { path: `/ws?token=${'0'.repeat(64)}` }],
    ['a token one character short', { path: `/ws?token=${token?.slice(1) ?? ''}` }],
    ['the socket token instead of the derived one', { path: `/ws?token=__SOCKET__` }],
    ['another path', { path: `/other?token=__TOKEN__` }],
    ['a foreign Origin', { origin: 'http://evil.example' }],
    ['our address on another port as Origin', { origin: 'http://127.0.0.1:1' }],
    ['an https Origin', { origin: 'https://127.0.0.1:__PORT__' }],
    ['Origin null (a sandboxed frame or file: page)', { origin: 'null' }],
    ['no Origin (a non-browser client)', { origin: null }],
    ['a foreign Host', { hostHeader: 'evil.example' }],
    ['an Origin on another port than Host', { hostHeader: 'localhost:9000', origin: 'http://localhost:9001' }],
    ['a loopback Origin with a foreign Host', { hostHeader: 'rebind.attacker.example:9000', origin: 'http://localhost:9000' }],
    ['a DNS-rebinding Host and Origin on our port', { hostHeader: 'rebind.attacker.example:__PORT__', origin: 'http://rebind.attacker.example:__PORT__' }],
  ] as [string, { path?: string; hostHeader?: string; origin?: string | null }][])('refuses %s with 403', async (_what, raw) => {
    const fill = (v: string | null | undefined) =>
      typeof v === 'string' ? v.replaceAll('__PORT__', String(host.port)).replaceAll('__TOKEN__', token).replaceAll('__SOCKET__', services.token.toString('hex')) : v;
    const opened = await openWs({ path: fill(raw.path) ?? undefined, hostHeader: fill(raw.hostHeader) ?? undefined, origin: raw.origin === null ? null : fill(raw.origin) });
    expect(opened).toEqual({ refused: 403 });
  });

  it('closes the socket (1008) on a message that is not a UI request', async () => {
    const opened = await openWs({});
    if (!('ws' in opened)) throw new Error('did not open');
    const closed = new Promise<number>((resolve) => opened.ws.once('close', (code) => resolve(code)));
    opened.ws.send('{"kind":"request","id":-1}');
    expect(await closed).toBe(1008);
  });
});
