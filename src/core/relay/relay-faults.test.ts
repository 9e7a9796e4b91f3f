import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_HOST_CAPABILITIES } from '../host/capabilities.js';
import { startHostServices, type HostServices } from '../host/host-services.js';
import { openStore } from '../store/index.js';
import { writeRelayConfig } from './config.js';
import type { Relay } from './connection.js';
import { batonCli } from './test-support/baton-cli.js';
import { connectTo, makeDevice, pairDevices, type TestDevice } from './test-support/devices.js';
import { startNatsServer, type NatsServerHandle } from './test-support/nats-server.js';
import { startTcpProxy, type TcpProxy } from './test-support/tcp-proxy.js';

/** Server faults with real processes: the sender's CLI goes through a proxy that tells when to kill the server. */
let server: NatsServerHandle;
let proxy: TcpProxy;
let a: TestDevice;
let b: TestDevice;
let cwd: string;
let host: HostServices | undefined;

beforeAll(async () => {
  server = await startNatsServer();
  const relay: Relay = await connectTo(server);
  [a, b] = [await makeDevice(server, 'laptop'), await makeDevice(server, 'devbox')];
  await pairDevices(relay, a, b);
  await relay.close();
  proxy = await startTcpProxy(server.port);
  await writeRelayConfig(a.dataDir, { version: 1, url: proxy.url, connectedAt: new Date().toISOString() });
  cwd = await mkdtemp(join(tmpdir(), 'baton-faults-cwd-'));
});
afterAll(async () => {
  await host?.close();
  await proxy?.close();
  await server?.stop();
  for (const dir of [a?.dataDir, b?.dataDir, cwd]) if (dir) await rm(dir, { recursive: true, force: true });
});

async function startB(): Promise<HostServices> {
  host = await startHostServices({ dataDir: b.dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
  await host.relay!.ready;
  return host;
}

function messages(n: number, size: number): string {
  return Array.from({ length: n }, (_, i) => JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: `${i} ${'y'.repeat(size)}` })).join('\n');
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('relay faults (real nats-server killed and restarted)', () => {
  it('server killed mid-upload: failure reported, session saved locally, a retry lands exactly one session', async () => {
    const services = await startB();
    proxy.onUpstreamBytes(1_000_000, () => void server.kill());
    const failed = await batonCli(a.dataDir, ['handoff', '--to', 'devbox', '--cwd', cwd, '--json', '--timeout', '5', '--title', 'big', '--messages', '-'], { input: messages(60, 50_000) });
    expect(failed.code, failed.stdout + failed.stderr).toBe(9);
    expect(failed.json).toMatchObject({ category: 'relay_failure' });
    const sessionId = failed.json.sessionId as string;
    const storeA = await openStore(a.dataDir);
    expect((await storeA.getSession(sessionId)).messageCount).toBe(60);
    await storeA.close();

    await server.restart();
    const retried = await batonCli(a.dataDir, ['handoff', '--session', sessionId, '--to', 'devbox', '--cwd', cwd, '--json', '--timeout', '15']);
    expect(retried.code, retried.stdout + retried.stderr).toBe(0);
    expect(['accepted', 'duplicate']).toContain(retried.json.category);
    expect((await services.store.list()).filter((r) => r.id === sessionId)).toHaveLength(1);
    expect((await services.store.getSession(sessionId)).messageCount).toBe(60);
  });

  it('server restarted with its JetStream store: a queued handoff is delivered', async () => {
    await host!.close();
    host = undefined;
    const queued = await batonCli(a.dataDir, ['handoff', '--to', 'devbox', '--cwd', cwd, '--json', '--timeout', '1', '--title', 'queued', '--messages', '-'], { input: messages(5, 10) });
    expect(queued.json).toMatchObject({ category: 'queued' });
    await server.kill();
    await server.restart();
    const services = await startB();
    await waitFor(async () => !!(await services.store.getReceipt(queued.json.handoffId as string)));
    expect((await services.store.list()).filter((r) => r.id === queued.json.sessionId)).toHaveLength(1);
    const again = await batonCli(a.dataDir, ['handoff', '--session', queued.json.sessionId as string, '--to', 'devbox', '--cwd', cwd, '--json']);
    expect(again.json).toMatchObject({ category: 'duplicate' });
  });

  it('the target host survives a server kill and receives what is sent after the restart', async () => {
    const services = host!;
    await server.kill();
    await server.restart();
    const sent = await batonCli(a.dataDir, ['handoff', '--to', 'devbox', '--cwd', cwd, '--json', '--timeout', '15', '--title', 'after restart', '--messages', '-'], { input: messages(3, 10) });
    expect(sent.code, sent.stdout).toBe(0);
    expect((await services.store.getSession(sent.json.sessionId as string)).messageCount).toBe(3);
  });
});
