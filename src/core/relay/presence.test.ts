import { rm } from 'node:fs/promises';
import { nanos } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicPart } from '../crypto/identity.js';
import { addPeer } from '../crypto/peers.js';
import { openStore } from '../store/index.js';
import type { SessionStore } from '../store/types.js';
import { resolveEndpoint } from '../transport/endpoint.js';
import { connectRelay, ensureRelayResources, type Relay } from './connection.js';
import { startRelayHost, type RelayHost } from './relay-host.js';
import { PRESENCE_BUCKET } from './resources.js';
import { createRelayUiHandlers } from './ui-handlers.js';
import { makeDevice, type TestDevice } from './test-support/devices.js';
import { startNatsServer, type NatsServerHandle } from './test-support/nats-server.js';

/**
 * Lowered from PRESENCE_MAX_AGE_MS (a minute) so expiry is observable in a test; not lower, so that
 * a heartbeat (every max_age / 3) seconds late on a loaded machine still lands within max_age.
 */
const MAX_AGE_MS = 6_000;

let server: NatsServerHandle;
let admin: Relay;
const devices: TestDevice[] = [];
const stores: SessionStore[] = [];
const hosts: RelayHost[] = [];

async function startHost(device: TestDevice): Promise<RelayHost> {
  const store = await openStore(device.dataDir);
  stores.push(store);
  // No handoff reaches these hosts; a receive that is called fails the test loudly.
  const host = await startRelayHost({ dataDir: device.dataDir, store, receive: async () => { throw new Error('unexpected handoff'); }, presenceMaxAgeMs: MAX_AGE_MS });
  if (!host) throw new Error(`no relay configured in ${device.dataDir}`);
  hosts.push(host);
  await host.ready;
  expect(host.state).toBe('online');
  return host;
}

beforeAll(async () => {
  server = await startNatsServer();
  admin = await connectRelay({ version: 1, url: server.url, connectedAt: '' });
  await ensureRelayResources(admin, { presenceMaxAgeMs: MAX_AGE_MS });
});
afterAll(async () => {
  for (const host of hosts) await host.close();
  for (const store of stores) await store.close();
  await admin?.close();
  await server?.stop();
  for (const d of devices) await rm(d.dataDir, { recursive: true, force: true });
});

describe('presence (bucket max_age, real nats-server)', () => {
  it('a device that stops heartbeating drops out after max_age, one that keeps heartbeating stays, and the Devices panel follows', async () => {
    const info = await admin.jsm.streams.info(`KV_${PRESENCE_BUCKET}`);
    expect(info.config.max_age).toBe(nanos(MAX_AGE_MS));

    const [observer, stays, leaves] = [await makeDevice(server, 'observer'), await makeDevice(server, 'stays'), await makeDevice(server, 'leaves')];
    devices.push(observer, stays, leaves);
    await addPeer(observer.dataDir, publicPart(stays.identity));
    await addPeer(observer.dataDir, publicPart(leaves.identity));
    const observerHost = await startHost(observer);
    await startHost(stays);
    const leavesHost = await startHost(leaves);
    const panel = createRelayUiHandlers({
      dataDir: observer.dataDir,
      store: stores[0]!,
      relay: observerHost,
      endpoint: resolveEndpoint(observer.dataDir),
      token: Buffer.alloc(32),
      onDevicesChanged: () => undefined,
    });
    const online = async () => Object.fromEntries((await panel['devices:list']()).map((d) => [d.name, d.online]));

    expect(await online()).toEqual({ stays: true, leaves: true });

    // `leaves` stops heartbeating (its host closes); `stays` keeps beating every max_age / 3.
    await leavesHost.close();
    const stoppedAt = Date.now();
    let goneAfterMs = -1;
    const staysSeen: boolean[] = [];
    while (Date.now() - stoppedAt < 2 * MAX_AGE_MS) {
      const present = await observerHost.presence();
      staysSeen.push(present.has(stays.identity.deviceId));
      if (goneAfterMs < 0 && !present.has(leaves.identity.deviceId)) goneAfterMs = Date.now() - stoppedAt;
      await new Promise((r) => setTimeout(r, 200));
    }
    // Gone within max_age of its last beat (at most max_age / 3 before the close), plus slack for the
    // server's expiry timer and our samples on a loaded machine.
    expect(goneAfterMs).toBeGreaterThan(0);
    expect(goneAfterMs).toBeLessThan(MAX_AGE_MS + 5_000);
    // `stays` was present at every sample across two max_ages.
    expect(staysSeen.length).toBeGreaterThan(10);
    expect(staysSeen.every(Boolean)).toBe(true);
    expect(await online()).toEqual({ stays: true, leaves: false });
  }, 60_000);
});
