import { ApiError, ClientErrorCode } from './api-error';
import type { BatonBridge } from './baton-bridge';
import type { ConnectionState, Transport } from './types';

/**
 * The Electron host's transport: `window.baton` from the preload. IPC inside one app does not
 * drop, so the connection is always "connected".
 */
export function createBridgeTransport(bridge: BatonBridge): Transport {
  const state: ConnectionState = { status: 'connected' };
  const subscriptions = new Set<() => void>();
  let closed = false;

  return {
    kind: 'electron',
    async request(channel, payload) {
      if (closed) throw new ApiError(ClientErrorCode.DISCONNECTED, `The bridge to Baton is closed; "${channel}" was not sent.`, channel);
      try {
        return await bridge.invoke(channel, payload);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new ApiError(ClientErrorCode.BRIDGE_FAILED, `The Electron bridge failed on "${channel}": ${reason}`, channel);
      }
    },
    subscribe(event, listener) {
      const off = bridge.on(event, listener);
      const unsubscribe = (): void => {
        if (!subscriptions.delete(unsubscribe)) return;
        off();
      };
      subscriptions.add(unsubscribe);
      return unsubscribe;
    },
    connection: () => state,
    // The state never changes, so there is nothing to tell a listener.
    onConnection: () => () => undefined,
    close() {
      closed = true;
      for (const unsubscribe of [...subscriptions]) unsubscribe();
    },
  };
}
