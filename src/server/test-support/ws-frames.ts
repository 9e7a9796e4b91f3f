import { randomBytes } from 'node:crypto';
import net from 'node:net';
import WebSocket from 'ws';

/**
 * Hand-built WebSocket traffic for the browser host's tests: a client library refuses to send
 * the bad frames, so they are written byte by byte on a raw TCP socket.
 */
/** One WebSocket frame: FIN + opcode, optional RSV1, masked unless told not to. */
export function frame(payload: Buffer, options: { opcode?: number; rsv1?: boolean; masked?: boolean } = {}): Buffer {
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
export function rawUpgrade(port: number, token: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.write(
        [
          `GET /ws?token=${token} HTTP/1.1`,
          `Host: 127.0.0.1:${port}`,
          `Origin: http://127.0.0.1:${port}`,
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
export function sendAndAwaitClose(socket: net.Socket, bytes: Buffer): Promise<number | null> {
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
export async function listSessions(port: number, token: string): Promise<unknown> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}`, { origin: `http://127.0.0.1:${port}` });
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

