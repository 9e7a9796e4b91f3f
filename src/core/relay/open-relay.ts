import { loadOrCreateIdentity, type DeviceIdentity } from '../crypto/identity.js';
import { readRelayConfig, type RelayConfig } from './config.js';
import { connectRelay, RelayError, type Relay, type RelayConnectOptions } from './connection.js';

export interface DeviceRelay {
  config: RelayConfig;
  relay: Relay;
  identity: DeviceIdentity;
}

/** The configured relay and this device's identity (made on first use); NOT_CONFIGURED when no relay is set. */
export async function openDeviceRelay(dataDir: string, options: RelayConnectOptions = {}): Promise<DeviceRelay> {
  const config = await readRelayConfig(dataDir);
  if (!config) throw new RelayError('RELAY_CONFIG', 'No relay is configured: run baton relay connect nats://HOST:PORT first.');
  const identity = await loadOrCreateIdentity(dataDir);
  return { config, identity, relay: await connectRelay(config, options) };
}
