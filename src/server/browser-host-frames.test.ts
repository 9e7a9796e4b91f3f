import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frame, listSessions, rawUpgrade, sendAndAwaitClose } from './test-support/ws-frames.js';
import { startHostServices, type HostServices } from '../core/host/host-services.js';
import { BROWSER_HOST_CAPABILITIES } from '../core/host/capabilities.js';
import { MAX_BROWSER_CONNECTIONS, WS_MAX_PAYLOAD_BYTES, browserToken, startBrowserHost, type BrowserHost } from './browser-host.js';

/**
 * The host must outlive any frame a page (or anything that reaches 127.0.0.1) can send. Each bad
 * frame is built by hand and written on a raw TCP socket, because a WebSocket client library
 * refuses to send them; then a normal request must still be answered.
 */
let dataDir: string;
let services: HostServices;
let host: BrowserHost;
let token: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'baton-frames-'));
  services = await startHostServices({ dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
  host = await startBrowserHost({ services, port: 0, rendererDir: join(dataDir, 'no-renderer') });
  token = browserToken(services.token);
});

afterAll(async () => {
  await host.close();
  await services.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('browser host under bad WebSocket frames', () => {
  it.each([
    ['a message of maxPayload + 1 byte', () => frame(Buffer.alloc(WS_MAX_PAYLOAD_BYTES + 1, 0x61)), 1009],
    ['invalid UTF-8 in a text frame', () => frame(Buffer.from([0x7b, 0xff, 0xfe, 0xfd, 0x7d])), 1007],
    ['RSV1 set without an extension', () => frame(Buffer.from('{}'), { rsv1: true }), 1002],
    ['an unmasked client frame', () => frame(Buffer.from('{}'), { masked: false }), 1002],
    ['a reserved opcode', () => frame(Buffer.from('{}'), { opcode: 0x3 }), 1002],
  ])('survives %s, closes that socket with the right code, and still answers', async (_name, build, code) => {
    const socket = await rawUpgrade(host.port, token);
    expect(await sendAndAwaitClose(socket, build())).toBe(code);
    expect(await listSessions(host.port, token)).toEqual({ kind: 'response', id: 7, result: { ok: true, value: [] } });
  });

  it('survives a peer that resets mid-frame', async () => {
    const socket = await rawUpgrade(host.port, token);
    socket.write(frame(Buffer.alloc(1000, 0x61)).subarray(0, 100));
    socket.resetAndDestroy();
    await new Promise((resolve) => socket.once('close', resolve));
    expect(await listSessions(host.port, token)).toMatchObject({ kind: 'response', id: 7, result: { ok: true } });
  });

  it(`refuses connection ${MAX_BROWSER_CONNECTIONS + 1} with a 503 that says why, and serves again once one closes`, async () => {
    const open: net.Socket[] = [];
    try {
      for (let i = 0; i < MAX_BROWSER_CONNECTIONS; i++) open.push(await rawUpgrade(host.port, token));
      const refusal = await rawUpgrade(host.port, token).then(
        () => 'upgraded',
        (error: Error) => error.message,
      );
      expect(refusal).toBe('no upgrade: HTTP/1.1 503 Service Unavailable');
      const body = await new Promise<string>((resolve) => {
        const socket = net.connect(host.port, '127.0.0.1');
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
        socket.on('close', () => resolve(text));
        socket.write(`GET /ws?token=${token} HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nOrigin: http://127.0.0.1:${host.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
      });
      expect(body).toContain(`Baton already serves ${MAX_BROWSER_CONNECTIONS} pages`);
    } finally {
      for (const socket of open) socket.destroy();
    }
    await expect.poll(() => listSessions(host.port, token).then(() => 'answered', () => 'refused'), { timeout: 5_000 }).toBe('answered');
  });
});
