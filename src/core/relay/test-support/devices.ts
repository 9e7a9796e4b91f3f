import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateIdentity, type DeviceIdentity } from '../../crypto/identity.js';
import { writeRelayConfig } from '../config.js';
import { connectRelay, ensureRelayResources, type Relay } from '../connection.js';
import { joinPairing, startPairing } from '../pairing.js';
import type { NatsServerHandle } from './nats-server.js';

/** One "device": its own data directory, identity and relay configuration. */
export interface TestDevice {
  name: string;
  dataDir: string;
  identity: DeviceIdentity;
}

export async function makeDevice(server: NatsServerHandle, name: string, root?: string): Promise<TestDevice> {
  const dataDir = await mkdtemp(join(root ?? tmpdir(), `baton-device-${name}-`));
  await writeRelayConfig(dataDir, { version: 1, url: server.url, connectedAt: new Date().toISOString() });
  const identity = await loadOrCreateIdentity(dataDir, name);
  return { name, dataDir, identity };
}

export async function connectTo(server: NatsServerHandle): Promise<Relay> {
  const relay = await connectRelay({ version: 1, url: server.url, connectedAt: '' });
  await ensureRelayResources(relay);
  return relay;
}

/** Pairs two devices through the real pairing exchange. */
export async function pairDevices(relay: Relay, a: TestDevice, b: TestDevice): Promise<void> {
  const started = await startPairing(relay, a.dataDir, a.identity);
  const waited = started.wait(10_000);
  await joinPairing(relay, b.dataDir, b.identity, started.code);
  await waited;
}
