import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listSessions } from './test-support/ws-frames.js';
import { loadOrCreateToken, resolveEndpoint } from '../core/transport/endpoint.js';
import { rawAuthenticated } from '../core/transport/test-support/fixture.js';

/**
 * `baton serve`'s start (issue 15): the address is printed once the page can be served, and the
 * host's services (the store, the receiver, the candidates' index read) start behind it, so a
 * browser loads the page meanwhile. Real processes on a temp data directory.
 */
const CLI = join(import.meta.dirname, '..', 'cli', 'run.ts');
let home: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'baton-serve-start-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

interface Serve {
  lines: Promise<string[]>;
  first: Promise<string>;
  stop(): Promise<void>;
  signal(name: NodeJS.Signals): void;
  exited: Promise<number | null>;
}

function serve(extraEnv: Record<string, string> = {}, args: string[] = []): Serve {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', '--json', ...args], {
    env: { ...process.env, BATON_HOME: join(home, 'data'), XDG_RUNTIME_DIR: '', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const first = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.once('exit', (code) => reject(new Error(`baton serve exited (${code}) before a line: ${stderr}`)));
  });
  return {
    first,
    exited,
    signal: (name) => void child.kill(name),
    lines: exited.then(() => out.split('\n').filter((line) => line !== '')),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

describe('baton serve start-up', () => {
  it('prints its address before the host services start, and answers a request sent at once (they wait for the start)', async () => {
    const trace = join(home, 'trace.jsonl');
    const host = serve({ BATON_PHASE_TRACE: trace });
    const started = JSON.parse(await host.first) as { ok: boolean; url: string; port: number };
    expect(started.ok).toBe(true);
    // Sent as soon as the address is out: answered once the store is open, not refused.
    expect(await listSessions(started.port, new URL(started.url).searchParams.get('token')!)).toEqual({ kind: 'response', id: 7, result: { ok: true, value: [] } });
    await host.stop();
    const { marks } = JSON.parse((await readFile(trace, 'utf8')).trim()) as { marks: Record<string, number> };
    // Before: the services started (and their modules evaluated) first, then the page's server listened.
    expect(marks['serve-listening']).toBeLessThan(marks['host-services-start']!);
    expect(marks['host-services-start']).toBeLessThan(marks['serve-services']!);
  }, 60_000);

  it('a second host for the same data directory prints no address: one problem, ALREADY_RUNNING, exit 1 (the receiver holds the endpoint before the address)', async () => {
    const first = serve();
    expect(JSON.parse(await first.first)).toMatchObject({ ok: true });
    try {
      const second = serve();
      expect(await second.exited).toBe(1);
      const lines = (await second.lines).map((line) => JSON.parse(line) as { ok: boolean; code?: string });
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ ok: false, code: 'ALREADY_RUNNING' });
    } finally {
      await first.stop();
    }
  }, 60_000);

  it('a start that fails after the address: the address line, then one problem line, exit 1, and the socket file removed', async () => {
    const dataDir = join(home, 'data');
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    // The store's directory is a plain file: the services fail to start once the address is out.
    await writeFile(join(dataDir, 'sessions'), 'not a directory');
    const host = serve();
    const started = JSON.parse(await host.first) as { ok: boolean; endpoint: string };
    expect(started.ok).toBe(true);
    expect(await host.exited).toBe(1);
    const lines = (await host.lines).map((line) => JSON.parse(line) as { ok: boolean; code?: string });
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ ok: false });
    expect(existsSync(started.endpoint)).toBe(false);
  }, 60_000);

  it('Ctrl+C while a start after the address is failing exits 1 with the problem reported, not 0', async () => {
    const dataDir = join(home, 'data');
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    await writeFile(join(dataDir, 'sessions'), 'not a directory');
    const host = serve();
    expect(JSON.parse(await host.first)).toMatchObject({ ok: true });
    // At the address the services' modules are still loading: the stop meets the failing start.
    host.signal('SIGINT');
    expect(await host.exited).toBe(1);
    const lines = (await host.lines).map((line) => JSON.parse(line) as { ok: boolean });
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ ok: false });
  }, 60_000);

  it('a CLI request on the socket sent right at the address is answered once, by the services after they take over', async () => {
    const dataDir = join(home, 'data');
    const host = serve();
    try {
      const started = JSON.parse(await host.first) as { endpoint: string };
      const endpoint = resolveEndpoint(dataDir, { XDG_RUNTIME_DIR: '' });
      expect(endpoint.address).toBe(started.endpoint);
      const peer = await rawAuthenticated(started.endpoint, await loadOrCreateToken(endpoint.tokenPath));
      peer.sendFrame({ type: 'request', id: 'at-address', method: 'ping', params: {} });
      // The services' own answer (capabilities come from the started host, not the early endpoint).
      expect(await peer.nextFrame(30_000)).toMatchObject({ type: 'answer', id: 'at-address', ok: true, pong: true, capabilities: expect.any(Array) });
      // Nothing more for that request, up to the host's stop closing the connection.
      await host.stop();
      const rest: unknown[] = [];
      for (let next = await peer.nextFrame(2_000); next; next = await peer.nextFrame(2_000)) rest.push(next);
      expect(rest.filter((frame) => (frame as { id?: string }).id === 'at-address')).toEqual([]);
    } finally {
      await host.stop();
    }
  }, 60_000);

  it('locked (passphrase) host whose page\'s port is taken: one problem line, exit 1, no hang', async () => {
    const dataDir = join(home, 'data');
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const enabled = spawn(process.execPath, ['--import', 'tsx', CLI, 'encrypt', '--enable', '--passphrase', '--json'], {
      env: { ...process.env, BATON_HOME: dataDir, XDG_RUNTIME_DIR: '', DISPLAY: '', WAYLAND_DISPLAY: '', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    enabled.stdin.end('correct horse battery staple\n');
    expect(await new Promise((resolve) => enabled.once('exit', resolve))).toBe(0);
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const host = serve({}, ['--locked', '--port', String(port)]);
      // Before: the lock screen's receiver stayed open and the process never exited.
      const code = await Promise.race([host.exited, new Promise((resolve) => setTimeout(() => resolve('hung'), 20_000))]);
      await host.stop();
      expect(code).toBe(1);
      const lines = (await host.lines).map((line) => JSON.parse(line) as { ok: boolean; code?: string });
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ ok: false });
      expect(existsSync(resolveEndpoint(dataDir, { XDG_RUNTIME_DIR: '' }).address)).toBe(false);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 60_000);
});
