import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BROWSER_HOST_CAPABILITIES } from '../core/host/capabilities.js';
import { startHostServices, type HostServices } from '../core/host/host-services.js';
import { FIRST_SCREEN_QUERY } from '../shared/first-screen.js';
import { FIRST_SCREEN_REQUESTS } from '../shared/first-screen-requests.js';
import { browserToken, startBrowserHost, type BrowserHost } from './browser-host.js';

/**
 * Issue 15: the page's first socket asks for the first screen in its address, and the real
 * `baton serve` stack answers it as soon as it accepts the socket, before the page could send a
 * frame (its modules still evaluate). The page's side (its transport takes those answers instead
 * of asking again) is in src/renderer/src/api/early-connection.test.ts.
 */
let scratch: string;
let services: HostServices;
let host: BrowserHost;
let wsUrl: string;
const savedHome = process.env.HOME;
const savedRuntimeDir = process.env.XDG_RUNTIME_DIR;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'baton-first-screen-'));
  // No Claude Code or Codex folders: the candidates' scan is over an empty home, not this machine's.
  process.env.HOME = join(scratch, 'home');
  await mkdir(process.env.HOME);
  delete process.env.XDG_RUNTIME_DIR;
  const rendererDir = join(scratch, 'renderer');
  await mkdir(rendererDir);
  services = await startHostServices({ dataDir: join(scratch, 'data'), kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
  host = await startBrowserHost({ services, port: 0, rendererDir });
  wsUrl = `ws://127.0.0.1:${host.port}/ws?token=${browserToken(services.token)}`;
});
afterAll(async () => {
  await host?.close();
  await services?.close();
  await rm(scratch, { recursive: true, force: true });
  process.env.HOME = savedHome;
  if (savedRuntimeDir !== undefined) process.env.XDG_RUNTIME_DIR = savedRuntimeDir;
});

const origin = () => ({ headers: { Origin: `http://127.0.0.1:${host.port}` } });

describe('the first screen asked in the socket\'s address', () => {
  it('is answered under the reserved ids as soon as the socket is accepted, with nothing sent by the page', async () => {
    const ws = new WebSocket(`${wsUrl}&${FIRST_SCREEN_QUERY}`, origin());
    const answers: Array<{ kind: string; id?: number; result?: { ok: boolean; value?: unknown } }> = [];
    await new Promise<void>((done) => {
      ws.on('message', (data) => {
        const message = JSON.parse(data.toString()) as (typeof answers)[number];
        if (message.kind === 'response') answers.push(message);
        if (answers.length === FIRST_SCREEN_REQUESTS.length) done();
      });
    });
    expect(answers.map((a) => a.id).sort()).toEqual(FIRST_SCREEN_REQUESTS.map((r) => r.id));
    const agents = answers.find((a) => a.id === FIRST_SCREEN_REQUESTS.find((r) => r.channel === 'agents:list')!.id)!;
    expect(agents.result).toMatchObject({ ok: true, value: { candidates: [], total: 0 } });
    ws.close();
  });

  it('without the query, nothing is answered unasked', async () => {
    const ws = new WebSocket(wsUrl, origin());
    const heard: unknown[] = [];
    ws.on('message', (data) => heard.push(JSON.parse(data.toString())));
    await new Promise((done) => ws.once('open', done));
    // The host's one answer to a request of ours comes after anything it would have sent at the accept.
    ws.send(JSON.stringify({ kind: 'request', id: 7, channel: 'host:info', payload: {} }));
    await new Promise<void>((done) => ws.on('message', () => done()));
    expect(heard).toMatchObject([{ kind: 'response', id: 7 }]);
    ws.close();
  });
});
