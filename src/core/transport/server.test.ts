import { randomBytes } from 'node:crypto';
import { lstat, mkdtemp, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clientProof } from './auth.js';
import { connectEndpoint } from './client.js';
import { resolveEndpoint } from './endpoint.js';
import { isTransportError } from './test-support/is-transport-error.js';
import { createRouter } from './router.js';
import { startEndpointServer } from './server.js';
import { RawPeer } from './test-support/raw-peer.js';
import { rawAuthenticated, startTestEndpoint, type TestEndpoint } from './test-support/fixture.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function endpointFor(options: Parameters<typeof startTestEndpoint>[0] = {}): Promise<TestEndpoint> {
  const test = await startTestEndpoint(options);
  cleanups.push(() => test.dispose());
  return test;
}

/** Handles of kinds a server or a connection leaves behind. */
function socketHandles(): number {
  return process.getActiveResourcesInfo().filter((kind) => /Pipe|TCP|Server/.test(kind)).length;
}
function timerHandles(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

describe('endpoint server: the happy path', () => {
  it('authenticates, answers a request and echoes its id', async () => {
    const test = await endpointFor();
    const client = await connectEndpoint({ endpoint: test.endpoint, token: test.token });
    const answer = await client.request('ping', { n: 1 });
    expect(answer).toEqual({ ok: true, echo: { n: 1 } });
    client.close();

    const peer = await rawAuthenticated(test.endpoint.address, test.token);
    peer.sendFrame({ type: 'request', id: 'req-42', method: 'ping', params: null });
    expect(await peer.nextFrame()).toEqual({ type: 'answer', id: 'req-42', ok: true, echo: null });
    peer.destroy();
  });

  it('keeps the directory 0700 and the socket 0600, both owned by us', async () => {
    const test = await endpointFor();
    const dir = await stat(test.endpoint.dir);
    const sock = await lstat(test.endpoint.address);
    expect(dir.mode & 0o777).toBe(0o700);
    expect(sock.isSocket()).toBe(true);
    expect(sock.mode & 0o777).toBe(0o600);
    expect(dir.uid).toBe(process.getuid?.());
    expect(sock.uid).toBe(process.getuid?.());
  });

  it('answers pipelined requests by id, concurrently', async () => {
    const test = await endpointFor({
      handle: async (request) => {
        const delay = (request.params as { delay: number }).delay;
        await new Promise((resolve) => setTimeout(resolve, delay));
        return { ok: true, delay };
      },
    });
    const client = await connectEndpoint({ endpoint: test.endpoint, token: test.token });
    const answers = await Promise.all([60, 10, 30].map((delay) => client.request('wait', { delay })));
    expect(answers.map((a) => a.delay)).toEqual([60, 10, 30]);
    client.close();
  });

  it('serves the server proof when the client asks for it (the Windows option, forced on here)', async () => {
    const test = await endpointFor();
    const client = await connectEndpoint({ endpoint: test.endpoint, token: test.token, authenticateServer: true });
    expect(await client.request('ping', {})).toMatchObject({ ok: true });
    client.close();
  });

  it('answers UNKNOWN_METHOD through the router, INTERNAL when a handler throws or returns junk', async () => {
    const test = await endpointFor({
      handle: createRouter({
        boom: async () => {
          throw new Error('disk on fire');
        },
        junk: async () => 42 as never,
        halfError: async () => ({ ok: false }) as never,
        forge: async () => ({ ok: true, type: 'hello', id: 'forged' }),
      }),
    });
    const client = await connectEndpoint({ endpoint: test.endpoint, token: test.token });
    const unknown = await client.request('nope', {});
    expect(unknown).toMatchObject({ ok: false, code: 'UNKNOWN_METHOD' });
    expect(String(unknown.message)).toContain('boom');
    expect(await client.request('constructor', {})).toMatchObject({ ok: false, code: 'UNKNOWN_METHOD' });
    expect(await client.request('boom', {})).toMatchObject({ ok: false, code: 'INTERNAL', message: expect.stringContaining('disk on fire') });
    expect(await client.request('junk', {})).toMatchObject({ ok: false, code: 'INTERNAL' });
    expect(await client.request('halfError', {})).toMatchObject({ ok: false, code: 'INTERNAL' });
    // A handler cannot forge the envelope: type and id are the server's.
    const peer = await rawAuthenticated(test.endpoint.address, test.token);
    peer.sendFrame({ type: 'request', id: 'mine', method: 'forge', params: {} });
    expect(await peer.nextFrame()).toEqual({ type: 'answer', id: 'mine', ok: true });
    peer.destroy();
    // The server survived all of it.
    expect(await client.request('nope', {})).toMatchObject({ code: 'UNKNOWN_METHOD' });
    client.close();
  });

  it('aborts the connection signal when the peer disconnects', async () => {
    let aborted!: () => void;
    const sawAbort = new Promise<void>((resolve) => (aborted = resolve));
    const test = await endpointFor({
      handle: (_request, connection) =>
        new Promise((resolve) => {
          connection.signal.addEventListener('abort', () => {
            aborted();
            resolve({ ok: false, code: 'DENIED', message: 'peer left' });
          });
        }),
    });
    const client = await connectEndpoint({ endpoint: test.endpoint, token: test.token });
    const pending = client.request('approval.request', {}).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.close();
    await sawAbort;
    expect(isTransportError(await pending, 'CLOSED')).toBe(true);
  });
});

describe('endpoint server: hostile and broken frames', () => {
  const limits = { maxFrameBytes: 4096, idleTimeoutMs: 400, handshakeTimeoutMs: 400 };

  it('answers BAD_FRAME to junk, deep nesting and __proto__ keys, and keeps serving', async () => {
    const test = await endpointFor({ limits });
    const peer = await rawAuthenticated(test.endpoint.address, test.token);
    const bad = [
      'not json',
      '[1,2,3]',
      '{"type":"weird"}',
      `{"type":"request","id":"a","method":"m","params":${'['.repeat(64)}${']'.repeat(64)}}`,
      '{"type":"request","id":"a","method":"m","params":{"__proto__":{"polluted":true}}}',
      '{"type":"request","id":"a","method":"m","params":{"constructor":{"prototype":{}}}}',
      '{"type":"auth","version":"1.0","proof":"00"}',
    ];
    for (const line of bad) {
      peer.send(`${line}\n`);
      const answer = await peer.nextFrame();
      expect(answer, line).toMatchObject({ type: 'answer', id: null, ok: false, code: 'BAD_FRAME' });
    }
    peer.send(Buffer.from([0xff, 0xfe, 0x0a]));
    expect(await peer.nextFrame()).toMatchObject({ ok: false, code: 'BAD_FRAME' });
    peer.sendFrame({ type: 'request', id: 'ok1', method: 'ping', params: 1 });
    expect(await peer.nextFrame()).toMatchObject({ id: 'ok1', ok: true });
    expect(test.handled).toEqual([{ method: 'ping', params: 1 }]);
    peer.destroy();
  });

  it('answers BAD_REQUEST echoing a usable id, and UPGRADE_REQUIRED to a newer major request', async () => {
    const test = await endpointFor({ limits });
    const peer = await rawAuthenticated(test.endpoint.address, test.token);
    peer.sendFrame({ type: 'request', id: 'r1', method: 'Bad Method!' });
    expect(await peer.nextFrame()).toMatchObject({ id: 'r1', ok: false, code: 'BAD_REQUEST' });
    peer.sendFrame({ type: 'request', id: 'bad id with spaces', method: 'ping' });
    expect(await peer.nextFrame()).toMatchObject({ id: null, ok: false, code: 'BAD_REQUEST' });
    peer.sendFrame({ type: 'request', id: 'r2', method: 'ping', params: {}, version: '2.0' });
    const upgrade = await peer.nextFrame();
    expect(upgrade).toMatchObject({ id: 'r2', ok: false, code: 'UPGRADE_REQUIRED' });
    expect(String(upgrade?.message)).toContain('2.0');
    expect(String(upgrade?.message)).toContain('1.0');
    // Unknown fields and a newer minor are fine.
    peer.sendFrame({ type: 'request', id: 'r3', method: 'ping', params: { x: 1 }, version: '1.7', extra: { kept: true } });
    expect(await peer.nextFrame()).toMatchObject({ id: 'r3', ok: true });
    expect(test.handled).toHaveLength(1);
    peer.destroy();
  });

  it('answers FRAME_TOO_LARGE to an oversize frame, then closes', async () => {
    const test = await endpointFor({ limits });
    const peer = await rawAuthenticated(test.endpoint.address, test.token);
    peer.send(`{"type":"request","id":"big","method":"ping","params":"${'x'.repeat(8000)}"}\n`);
    expect(await peer.nextFrame()).toMatchObject({ id: null, ok: false, code: 'FRAME_TOO_LARGE' });
    await peer.closed;
    expect(test.handled).toHaveLength(0);
  });

  it('refuses a newer major in auth with UPGRADE_REQUIRED naming both versions', async () => {
    const test = await endpointFor({ limits });
    const peer = await RawPeer.connect(test.endpoint.address);
    const hello = await peer.nextFrame();
    expect(hello).toMatchObject({ type: 'hello', versions: ['1.0'] });
    peer.sendFrame({ type: 'auth', version: '2.0', proof: clientProof(test.token, String(hello?.nonce)) });
    const answer = await peer.nextFrame();
    expect(answer).toMatchObject({ ok: false, code: 'UPGRADE_REQUIRED', message: expect.stringMatching(/2\.0.*1\.0/) });
    await peer.closed;
  });

  it('closes a truncated frame without calling the handler', async () => {
    const test = await endpointFor({ limits });
    const peer = await rawAuthenticated(test.endpoint.address, test.token);
    peer.send('{"type":"request","id":"t","method":"pi');
    peer.socket.end();
    await peer.closed;
    expect(test.handled).toHaveLength(0);
  });

  it('closes a one-byte-per-interval client within the idle timeout, though bytes keep coming', async () => {
    const test = await endpointFor({ limits });
    const peer = await rawAuthenticated(test.endpoint.address, test.token);
    const started = Date.now();
    const frame = `{"type":"request","id":"slow","method":"ping","params":"${'y'.repeat(200)}"}\n`;
    let i = 0;
    const drip = setInterval(() => {
      if (!peer.isClosed) peer.send(frame[i++ % frame.length] as string);
    }, 40);
    await peer.closed;
    clearInterval(drip);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(380);
    expect(elapsed).toBeLessThan(3_000); // 400 ms limit; the slack is for a loaded 2-core CI box, the drip alone would last forever
    expect(test.handled).toHaveLength(0);
  });

  it('closes a one-byte-per-interval handshake within the handshake timeout', async () => {
    const test = await endpointFor({ limits });
    const peer = await RawPeer.connect(test.endpoint.address);
    await peer.nextFrame();
    const started = Date.now();
    const drip = setInterval(() => peer.isClosed || peer.send('{'), 40);
    await peer.closed;
    clearInterval(drip);
    expect(Date.now() - started).toBeLessThan(3_000); // 400 ms limit; the slack is for a loaded 2-core CI box, the drip alone would last forever
    expect(peer.receivedText.split('\n').filter(Boolean)).toHaveLength(1); // the hello, nothing more
  });

  it('closes an idle authenticated connection, but not while a handler is still working', async () => {
    const test = await endpointFor({
      limits,
      handle: async () => {
        await new Promise((resolve) => setTimeout(resolve, 900));
        return { ok: true };
      },
    });
    const busy = await rawAuthenticated(test.endpoint.address, test.token);
    busy.sendFrame({ type: 'request', id: 'long', method: 'wait', params: {} });
    expect(await busy.nextFrame(3_000)).toMatchObject({ id: 'long', ok: true }); // 900 ms > 400 ms idle
    const started = Date.now();
    await busy.closed; // then idle again: closed about 400 ms later
    expect(Date.now() - started).toBeLessThan(3_000); // 400 ms idle limit, with slack for a loaded 2-core CI box
  });
});

describe('endpoint server: lifecycle', () => {
  it('replaces a stale socket left by a dead owner', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'baton-stale-'));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const endpoint = resolveEndpoint(root, {}, 'linux');
    const token = randomBytes(32);
    // A real socket file with no listener: a child process that listens and is killed.
    const { spawnSync } = await import('node:child_process');
    const { ensureEndpointDir } = await import('./endpoint.js');
    await ensureEndpointDir(endpoint.dir);
    const child = spawnSync(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(endpoint.address)}, () => process.kill(process.pid, 'SIGKILL'))`]);
    expect(child.signal).toBe('SIGKILL');
    expect((await lstat(endpoint.address)).isSocket()).toBe(true);
    const noTarget = await connectEndpoint({ endpoint, token }).catch((e: unknown) => e);
    expect(isTransportError(noTarget, 'NO_TARGET')).toBe(true); // ECONNREFUSED

    const server = await startEndpointServer({ endpoint, token, handle: async () => ({ ok: true }) });
    cleanups.push(() => server.close());
    const client = await connectEndpoint({ endpoint, token });
    expect(await client.request('ping', {})).toEqual({ ok: true });
    client.close();
  });

  it('rejects a second instance with ALREADY_RUNNING while the owner is live', async () => {
    const test = await endpointFor();
    const error = await startEndpointServer({ endpoint: test.endpoint, token: test.token, handle: async () => ({ ok: true }) }).catch((e: unknown) => e);
    expect(isTransportError(error, 'ALREADY_RUNNING')).toBe(true);
    expect((error as Error).message).toContain(test.endpoint.address);
    // The first instance is untouched.
    const client = await connectEndpoint({ endpoint: test.endpoint, token: test.token });
    expect(await client.request('ping', 1)).toMatchObject({ ok: true });
    client.close();
  });

  it('close() ends every connection, unlinks the socket and leaves no handles or timers', async () => {
    const sockets0 = socketHandles();
    const timers0 = timerHandles();
    const test = await startTestEndpoint({ limits: { idleTimeoutMs: 60_000 } });
    const clients = await Promise.all(Array.from({ length: 4 }, () => connectEndpoint({ endpoint: test.endpoint, token: test.token })));
    await Promise.all(clients.map((client) => client.request('ping', {})));
    const halfway = await RawPeer.connect(test.endpoint.address); // mid-handshake
    await halfway.nextFrame();
    expect(socketHandles()).toBeGreaterThan(sockets0);
    await test.dispose();
    await Promise.all([halfway.closed, ...clients.map(() => Promise.resolve())]);
    await new Promise((resolve) => setImmediate(resolve));
    await expect(lstat(test.endpoint.address)).rejects.toMatchObject({ code: 'ENOENT' });
    for (const client of clients) await expect(client.request('ping', {})).rejects.toMatchObject({ code: 'CLOSED' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(socketHandles()).toBe(sockets0);
    expect(timerHandles()).toBeLessThanOrEqual(timers0);
  });

  it('refuses to start on a path that is not a socket', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'baton-nots-'));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const endpoint = resolveEndpoint(root, {}, 'linux');
    const { ensureEndpointDir } = await import('./endpoint.js');
    await ensureEndpointDir(endpoint.dir);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(endpoint.address, 'precious');
    const error = await startEndpointServer({ endpoint, token: randomBytes(32), handle: async () => ({ ok: true }) }).catch((e: unknown) => e);
    expect(isTransportError(error)).toBe(true);
    expect((error as { code: string }).code).toMatch(/UNSAFE_ENDPOINT|IO_ERROR/);
    expect((await lstat(endpoint.address)).isFile()).toBe(true); // never unlinked
  });

  it('never crashes on a peer that vanishes mid-frame or before its answer', async () => {
    const test = await endpointFor();
    for (let i = 0; i < 20; i += 1) {
      const socket = net.connect(test.endpoint.address);
      socket.on('error', () => undefined);
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write('{"type":"auth","ver');
      socket.destroy(); // Unix sockets have no RST: a plain destroy is the abrupt end
    }
    for (let i = 0; i < 20; i += 1) {
      const peer = await rawAuthenticated(test.endpoint.address, test.token);
      peer.sendFrame({ type: 'request', id: `gone${i}`, method: 'ping', params: 'x'.repeat(2000) });
      peer.destroy(); // the answer is written to a closed socket
    }
    const client = await connectEndpoint({ endpoint: test.endpoint, token: test.token });
    expect(await client.request('ping', 0)).toMatchObject({ ok: true });
    client.close();
  });
});
