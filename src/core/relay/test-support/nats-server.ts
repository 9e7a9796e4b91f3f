import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's nats-server (apt-get install nats-server); .ci/run installs it. Tests fail, never skip, without it. */
export const NATS_SERVER_BIN = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';
const READY_TIMEOUT_MS = 10_000;

export interface NatsServerHandle {
  url: string;
  port: number;
  storeDir: string;
  /** SIGKILL (a crash): the JetStream store stays on disk. */
  kill(): Promise<void>;
  /** Starts again on the same port with the same store. */
  restart(): Promise<void>;
  /** Stops and removes the store. */
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`nats-server exited with ${child.exitCode}: ${stderr()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = tcpConnect(port, '127.0.0.1');
      socket.once('connect', () => { socket.destroy(); resolve(true); });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nats-server did not listen on 127.0.0.1:${port} within ${READY_TIMEOUT_MS} ms: ${stderr()}`);
}

/** A real nats-server with JetStream on a free loopback port and a temporary store directory. */
export async function startNatsServer(): Promise<NatsServerHandle> {
  const storeDir = await mkdtemp(join(tmpdir(), 'baton-nats-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const launch = async () => {
    let err = '';
    const proc = spawn(NATS_SERVER_BIN, ['-js', '-sd', storeDir, '-p', String(port), '-a', '127.0.0.1'], { stdio: ['ignore', 'ignore', 'pipe'] });
    proc.stderr?.on('data', (d: Buffer) => { err = (err + d.toString()).slice(-4000); });
    const spawned = new Promise<void>((resolve, reject) => { proc.once('spawn', resolve); proc.once('error', reject); });
    await spawned.catch((e: Error) => { throw new Error(`Cannot run ${NATS_SERVER_BIN} (apt-get install nats-server): ${e.message}`); });
    child = proc;
    await waitForPort(port, proc, () => err);
  };
  const kill = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await exited;
  };
  await launch();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    kill,
    restart: launch,
    stop: async () => {
      await kill();
      await rm(storeDir, { recursive: true, force: true });
    },
  };
}
