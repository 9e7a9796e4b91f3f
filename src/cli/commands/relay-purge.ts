import { resolveDataDir } from '../../core/paths.js';
import { readIdentity } from '../../core/crypto/identity.js';
import { readRelayConfig } from '../../core/relay/config.js';
import { connectRelay } from '../../core/relay/connection.js';
import { purgeDevice } from '../../core/relay/purge.js';
import { EXIT, type Output } from '../output.js';
import { relayProblem } from './relay.js';

export async function runPurge(out: Output): Promise<number> {
  const dataDir = resolveDataDir();
  try {
    const [config, identity] = await Promise.all([readRelayConfig(dataDir), readIdentity(dataDir)]);
    if (!config) {
      out.problem('relay purge', 'NOT_CONFIGURED', 'No relay is configured, so there is nothing to purge.');
      return EXIT.failure;
    }
    if (!identity) {
      out.result('relay purge', { removed: {} }, () => 'This installation has no device identity, so nothing of it is on the relay.');
      return EXIT.ok;
    }
    const relay = await connectRelay(config);
    try {
      const removed = await purgeDevice(relay, identity.deviceId);
      out.result('relay purge', { deviceId: identity.deviceId, removed }, () =>
        [`Removed from ${config.url} everything of device ${identity.name} (${identity.deviceId}):`, ...Object.entries(removed).map(([what, n]) => `  ${what}: ${n}`)].join('\n'),
      );
      return EXIT.ok;
    } finally {
      await relay.close();
    }
  } catch (error) {
    return relayProblem(out, 'relay purge', error);
  }
}
