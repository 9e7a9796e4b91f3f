import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
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

/** One WebSocket frame: FIN + opcode, optional RSV1, masked unless told not to. */
function frame(payload: Buffer, options: { opcode?: number; rsv1?: boolean; masked?: boolean } = {}): Buffer {
  const { opcode = 0x1, rsv1 = false, masked = true } = options;
  const first = 0x80 | (rsv1 ? 0x40 : 0) | opcode;
  const maskBit = masked ? 0x80 : 0;
  let header: Buffer;
  if (payload.length < 126) header = Buffer.from([first, maskBit | payload.length]);
  else if (payload.length < 65_536) {
    header = Buffer.alloc(4);
    header[0] = first;
    header[1] = maskBit | 126;
    header.writeUInt16BE(payload.length, 2);
  } else {
    header = Buffer.alloc(10);
    header[0] = first;
    header[1] = maskBit | 127;
    header.writeBigUInt64BE(BigInt(payload.length), 2);
  }
  if (!masked) return Buffer.concat([header, payload]);
  const mask = randomBytes(4);
  const body = Buffer.from(payload);
  for (let i = 0; i < body.length; i++) body[i]! ^= mask[i % 4]!;
  return Buffer.concat([header, mask, body]);
}

/** Upgrades a raw socket by hand; resolves once the 101 arrives, with the socket and whatever follows. */
function rawUpgrade(): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(host.port, '127.0.0.1');
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.write(
        [
          `GET /ws?token=${token} HTTP/1.1`,
          `Host: 127.0.0.1:${host.port}`,
          `Origin: http://127.0.0.1:${host.port}`,
          'Upgrade: websocket',
          'Connection: Upgrade',
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
          'Sec-WebSocket-Version: 13',
          '',
          '',
        ].join('\r\n'),
      );
    });
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      if (!head.startsWith('HTTP/1.1 101')) reject(new Error(`no upgrade: ${head.split('\r\n')[0]}`));
      else resolve(socket);
    };
    socket.on('data', onData);
  });
}

/** Writes bytes and waits for the server to close; returns the close code it sent, if any. */
function sendAndAwaitClose(socket: net.Socket, bytes: Buffer): Promise<number | null> {
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
    });
    socket.on('error', () => undefined); // the server may reset while we still write
    socket.on('close', () => {
      // A close frame from the server: 0x88, unmasked length, then the 2-byte code.
      const at = received.indexOf(0x88);
      resolve(at >= 0 && received.length >= at + 4 ? received.readUInt16BE(at + 2) : null);
    });
    socket.write(bytes);
  });
}

/** A normal request through a real client: the host is alive and answering. */
async function listSessions(): Promise<unknown> {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${token}`, { origin: `http://127.0.0.1:${host.port}` });
  try {
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const answer = new Promise<{ kind: string; id: number; result: { ok: boolean } }>((resolve) => {
      ws.on('message', (data) => {
        const message = JSON.parse(data.toString()) as { kind: string; id: number; result: { ok: boolean } };
        if (message.kind === 'response') resolve(message);
      });
    });
    ws.send(JSON.stringify({ kind: 'request', id: 7, channel: 'sessions:list', payload: {} }));
    return await answer;
  } finally {
    ws.terminate();
  }
}

describe('browser host under bad WebSocket frames', () => {
  it.each([
    ['a message of maxPayload + 1 byte', () => frame(Buffer.alloc(WS_MAX_PAYLOAD_BYTES + 1, 0x61)), 1009],
    ['invalid UTF-8 in a text frame', () => frame(Buffer.from([0x7b, 0xff, 0xfe, 0xfd, 0x7d])), 1007],
    ['RSV1 set without an extension', () => frame(Buffer.from('{}'), { rsv1: true }), 1002],
    ['an unmasked client frame', () => frame(Buffer.from('{}'), { masked: false }), 1002],
    ['a reserved opcode', () => frame(Buffer.from('{}'), { opcode: 0x3 }), 1002],
  ])('survives %s, closes that socket with the right code, and still answers', async (_name, build, code) => {
    const socket = await rawUpgrade();
    expect(await sendAndAwaitClose(socket, build())).toBe(code);
    expect(await listSessions()).toEqual({ kind: 'response', id: 7, result: { ok: true, value: [] } });
  });

  it('survives a peer that resets mid-frame', async () => {
    const socket = await rawUpgrade();
    socket.write(frame(Buffer.alloc(1000, 0x61)).subarray(0, 100));
    socket.resetAndDestroy();
    await new Promise((resolve) => socket.once('close', resolve));
    expect(await listSessions()).toMatchObject({ kind: 'response', id: 7, result: { ok: true } });
  });

  it(`refuses connection ${MAX_BROWSER_CONNECTIONS + 1} with a 503 that says why, and serves again once one closes`, async () => {
    const open: net.Socket[] = [];
    try {
      for (let i = 0; i < MAX_BROWSER_CONNECTIONS; i++) open.push(await rawUpgrade());
      const refusal = await rawUpgrade().then(
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
    await expect.poll(() => listSessions().then(() => 'answered', () => 'refused'), { timeout: 5_000 }).toBe('answered');
  });
});
