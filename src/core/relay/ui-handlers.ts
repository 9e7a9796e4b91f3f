import type { UiRequest, UiResponse } from '../../shared/ui-contract.js';
import { fingerprint, loadOrCreateIdentity, readIdentity } from '../crypto/identity.js';
import { joinPairing, startPairing } from './pairing.js';
import { readPeers } from '../crypto/peers.js';
import type { SessionStore } from '../store/types.js';
import type { EndpointInfo } from '../transport/types.js';
import { readRelayConfig } from './config.js';
import type { RelayHost } from './relay-host.js';

/** How long "Send to device" waits for the receipt before showing `queued`. */
const UI_RECEIPT_WAIT_MS = 10_000;

/** The UI contract's relay channels, answered by a host (Electron or `baton serve`). */
export function createRelayUiHandlers(options: {
  dataDir: string;
  store: SessionStore;
  relay: RelayHost | undefined;
  endpoint: EndpointInfo;
  token: Buffer;
  onDevicesChanged: (reason: string) => void;
}) {
  const online = () => {
    const relay = options.relay?.connection();
    if (!relay) throw Object.assign(new Error('The relay is not connected: connect one with baton relay connect, then restart Baton.'), { code: 'RELAY_UNREACHABLE' });
    return relay;
  };
  return {
    'devices:pair': async (): Promise<UiResponse<'devices:pair'>> => {
      const identity = await loadOrCreateIdentity(options.dataDir);
      const pairing = await startPairing(online(), options.dataDir, identity);
      // Completes in the background; the panel hears about it through devices:changed.
      void pairing.wait().then(
        () => options.onDevicesChanged('paired'),
        () => options.onDevicesChanged('pairing-ended'),
      );
      return { code: pairing.code, link: pairing.link, expiresAt: pairing.expiresAt };
    },
    'devices:join': async ({ code }: UiRequest<'devices:join'>): Promise<UiResponse<'devices:join'>> => {
      const identity = await loadOrCreateIdentity(options.dataDir);
      const peer = await joinPairing(online(), options.dataDir, identity, code);
      options.onDevicesChanged('paired');
      return { deviceId: peer.deviceId, name: peer.name, fingerprint: peer.fingerprint, pairedAt: peer.pairedAt, online: null };
    },
    'relay:status': async (): Promise<UiResponse<'relay:status'>> => {
      const config = await readRelayConfig(options.dataDir).catch(() => undefined);
      const identity = await readIdentity(options.dataDir).catch(() => undefined);
      const relay = options.relay;
      return {
        configured: !!config,
        state: !config || !relay ? 'off' : relay.state,
        url: config?.url ?? null,
        error: relay?.error ?? null,
        device: identity ? { deviceId: identity.deviceId, name: identity.name, fingerprint: fingerprint(identity) } : null,
        received: relay?.stats ? { ...relay.stats, dropped: { ...relay.stats.dropped } } : null,
      };
    },
    'devices:list': async (): Promise<UiResponse<'devices:list'>> => {
      const peers = await readPeers(options.dataDir);
      const online = (await options.relay?.presence().catch(() => null)) ?? null;
      return peers.map((p) => ({ deviceId: p.deviceId, name: p.name, fingerprint: p.fingerprint, pairedAt: p.pairedAt, online: online ? online.has(p.deviceId) : null }));
    },
    'devices:send': async ({ sessionId, to }: UiRequest<'devices:send'>): Promise<UiResponse<'devices:send'>> => {
      // Loaded here: it brings the relay's client (nats), which a host without a relay never needs.
      const { handoffToDevice } = await import('./handoff-to-device.js');
      const outcome = await handoffToDevice({
        dataDir: options.dataDir,
        store: options.store,
        sessionId,
        to,
        offer: { endpoint: options.endpoint, token: options.token, timeoutMs: UI_RECEIPT_WAIT_MS },
        receiptWaitMs: UI_RECEIPT_WAIT_MS,
      });
      return { category: outcome.category, message: outcome.message, handoffId: outcome.handoffId };
    },
  };
}
