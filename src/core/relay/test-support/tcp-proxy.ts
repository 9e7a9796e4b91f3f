import { createServer, connect, type Socket } from 'node:net';

/** A loopback TCP proxy a test can partition: while blocked, bytes in both directions are dropped (not closed). */
export interface TcpProxy {
  url: string;
  /** Bytes forwarded from clients to the server so far. */
  readonly upstreamBytes: number;
  /** Called once when more than `bytes` went upstream (a test kills the server mid-upload there). */
  onUpstreamBytes(bytes: number, callback: () => void): void;
  block(): void;
  unblock(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  let blocked = false;
  let upstreamBytes = 0;
  let trigger: { bytes: number; callback: () => void } | undefined;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    client.on('data', (d) => {
      if (blocked) return;
      upstream.write(d);
      upstreamBytes += d.length;
      if (trigger && upstreamBytes > trigger.bytes) {
        const { callback } = trigger;
        trigger = undefined;
        callback();
      }
    });
    upstream.on('data', (d) => {
      if (!blocked) client.write(d);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `nats://127.0.0.1:${port}`,
    get upstreamBytes() {
      return upstreamBytes;
    },
    onUpstreamBytes: (bytes, callback) => {
      trigger = { bytes: upstreamBytes + bytes, callback };
    },
    block: () => (blocked = true),
    unblock: () => (blocked = false),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
