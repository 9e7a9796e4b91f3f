import { readRelayConfig } from './config.js';
import type { RelayHost } from './relay-host.js';

type RelayHostOptions = Parameters<typeof import('./relay-host.js').startRelayHost>[0];

/**
 * A host's relay inbox (issue 13) when a relay is configured, else undefined. The relay's code
 * (nats, JetStream, the object store, tweetnacl: 87 modules, ~640 KB of source) loads only then:
 * without a relay, a new host evaluated all of it before it printed its address (issue 15).
 */
export async function startConfiguredRelay(options: RelayHostOptions): Promise<RelayHost | undefined> {
  const config = await readRelayConfig(options.dataDir).catch(() => undefined);
  if (!config) return undefined;
  const { startRelayHost } = await import('./relay-host.js');
  return startRelayHost(options);
}
