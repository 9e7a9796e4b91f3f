import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectEndpoint } from './client.js';
import { ensureEndpointDir, resolveEndpoint } from './endpoint.js';
import { isTransportError } from './test-support/is-transport-error.js';
import { startTestEndpoint, type TestEndpoint } from './test-support/fixture.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function tempEndpoint(): Promise<ReturnType<typeof resolveEndpoint>> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'baton-cl-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const endpoint = resolveEndpoint(root, {}, 'linux');
  await ensureEndpointDir(endpoint.dir);
  return endpoint;
}

/** A plain socket server speaking whatever `onConnection` writes. */
async function scriptedServer(onConnection: (socket: net.Socket) => void): Promise<ReturnType<typeof resolveEndpoint>> {
  const endpoint = await tempEndpoint();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(endpoint.address, resolve));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return endpoint;
}

async function endpointFor(options: Parameters<typeof startTestEndpoint>[0] = {}): Promise<TestEndpoint> {
  const test = await startTestEndpoint(options);
  cleanups.push(() => test.dispose());
  return test;
}

describe('connectEndpoint: typed failures', () => {
  it('NO_TARGET when no socket exists, naming the address', async () => {
    const endpoint = await tempEndpoint();
    const error = await connectEndpoint({ endpoint, token: randomBytes(32) }).catch((e: unknown) => e);
    expect(isTransportError(error, 'NO_TARGET')).toBe(true);
    expect((error as Error).message).toContain(endpoint.address);
  });

  it('BAD_FRAME when the server does not open with a hello', async () => {
    const endpoint = await scriptedServer((socket) => socket.write('{"type":"answer","id":null,"ok":true}\n'));
    expect(isTransportError(await connectEndpoint({ endpoint, token: randomBytes(32) }).catch((e: unknown) => e), 'BAD_FRAME')).toBe(true);
    const garbage = await scriptedServer((socket) => socket.write('HTTP/1.1 200 OK\r\n\r\n\n'));
    expect(isTransportError(await connectEndpoint({ endpoint: garbage, token: randomBytes(32) }).catch((e: unknown) => e), 'BAD_FRAME')).toBe(true);
  });

  it('CLOSED when the server hangs up before its hello; TIMEOUT when it says nothing', async () => {
    const hangup = await scriptedServer((socket) => socket.end());
    expect(isTransportError(await connectEndpoint({ endpoint: hangup, token: randomBytes(32) }).catch((e: unknown) => e), 'CLOSED')).toBe(true);
    const silent = await scriptedServer(() => undefined);
    const started = Date.now();
    const error = await connectEndpoint({ endpoint: silent, token: randomBytes(32), timeoutMs: 200 }).catch((e: unknown) => e);
    expect(isTransportError(error, 'TIMEOUT')).toBe(true);
    expect(Date.now() - started).toBeLessThan(3_000); // 200 ms budget; generous for a loaded 2-core CI box
  });

  it('UPGRADE_REQUIRED when the server refuses our version in the handshake', async () => {
    const endpoint = await scriptedServer((socket) => {
      socket.write(`${JSON.stringify({ type: 'hello', versions: ['1.0'], nonce: randomBytes(32).toString('base64') })}\n`);
      socket.once('data', () => socket.end(`${JSON.stringify({ type: 'answer', id: null, ok: false, code: 'UPGRADE_REQUIRED', message: 'peer speaks protocol 1.0, this Baton speaks 2.0' })}\n`));
    });
    const error = await connectEndpoint({ endpoint, token: randomBytes(32) }).catch((e: unknown) => e);
    expect(isTransportError(error, 'UPGRADE_REQUIRED')).toBe(true);
    expect((error as Error).message).toContain('2.0');
  });
});

describe('EndpointClient.request', () => {
  it('rejects with TIMEOUT when the answer is late, and the connection stays usable', async () => {
    const test = await endpointFor({
      handle: async (request) => {
        if (request.method === 'slow') await new Promise((resolve) => setTimeout(resolve, 300));
        return { ok: true, method: request.method };
      },
    });
    const client = await connectEndpoint({ endpoint: test.endpoint, token: test.token });
    const error = await client.request('slow', {}, { timeoutMs: 50 }).catch((e: unknown) => e);
    expect(isTransportError(error, 'TIMEOUT')).toBe(true);
    expect(await client.request('fast', {})).toEqual({ ok: true, method: 'fast' });
    client.close();
  });

  it('refuses to send a frame over the limit (FRAME_TOO_LARGE) without touching the socket', async () => {
    const test = await endpointFor();
    const client = await connectEndpoint({ endpoint: test.endpoint, token: test.token });
    const error = await client.request('handoff.offer', { blob: 'x'.repeat(300 * 1024) }).catch((e: unknown) => e);
    expect(isTransportError(error, 'FRAME_TOO_LARGE')).toBe(true);
    expect(test.handled).toHaveLength(0);
    expect(await client.request('ping', 1)).toMatchObject({ ok: true });
    client.close();
  });

  it('rejects pending and later requests with CLOSED when the server goes away', async () => {
    const test = await startTestEndpoint({ handle: () => new Promise(() => undefined) });
    const client = await connectEndpoint({ endpoint: test.endpoint, token: test.token });
    const pending = client.request('hang', {}).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await test.dispose();
    expect(isTransportError(await pending, 'CLOSED')).toBe(true);
    await expect(client.request('ping', {})).rejects.toMatchObject({ code: 'CLOSED' });
    client.close();
  });

  it('strips the envelope: the answer has neither type nor id', async () => {
    const test = await endpointFor();
    const client = await connectEndpoint({ endpoint: test.endpoint, token: test.token });
    const answer = await client.request('ping', 'x');
    expect(answer).not.toHaveProperty('type');
    expect(answer).not.toHaveProperty('id');
    client.close();
  });
});
