/**
 * The receiving side of bench/handoff/round-trip.ts, run as its own process (as the desktop app
 * is): the real endpoint server plus the two bare baselines on sockets of the same kind.
 * With --serve: prints one JSON line {root, address, token, echo, greeter}; exits when stdin closes.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensureEndpointDir, resolveEndpoint } from '../../src/core/transport/endpoint.js';
import { startEndpointServer } from '../../src/core/transport/server.js';

export interface BenchServers {
  root: string;
  address: string;
  token: string;
  echo: string;
  greeter: string;
}

export async function startBenchServers(): Promise<{ info: BenchServers; stop(): Promise<void> }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'baton-bench-'));
  const endpoint = resolveEndpoint(root, {}, 'linux');
  const token = randomBytes(32);
  const server = await startEndpointServer({ endpoint, token, handle: async (request) => ({ ok: true, echo: request.params }) });

  const dir = path.join(root, 'bare');
  await ensureEndpointDir(dir);
  const listen = (address: string, greet: boolean): Promise<net.Server> =>
    new Promise((resolve) => {
      const bare = net.createServer((socket) => {
        socket.on('error', () => undefined);
        if (greet) socket.write('{"type":"hello"}\n');
        socket.on('data', (chunk) => socket.write(chunk));
      });
      bare.listen(address, () => resolve(bare));
    });
  const echo = await listen(path.join(dir, 'echo.sock'), false);
  const greeter = await listen(path.join(dir, 'greeter.sock'), true);
  return {
    info: { root, address: endpoint.address, token: token.toString('hex'), echo: path.join(dir, 'echo.sock'), greeter: path.join(dir, 'greeter.sock') },
    async stop() {
      await server.close();
      await new Promise((resolve) => echo.close(resolve));
      await new Promise((resolve) => greeter.close(resolve));
      await rm(root, { recursive: true, force: true });
    },
  };
}

if (process.argv.includes('--serve')) {
  const { info, stop } = await startBenchServers();
  process.stdout.write(`${JSON.stringify(info)}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => {
    void stop().then(() => process.exit(0));
  });
}
