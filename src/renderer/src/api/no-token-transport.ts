import { ApiError, ClientErrorCode } from './api-error';
import type { ConnectionState, Transport } from './types';

/**
 * Used when the page was opened without the token `baton serve` prints: nothing can be fetched,
 * and every request says how to get in.
 */
export function createNoTokenTransport(): Transport {
  const state: ConnectionState = { status: 'no-token' };
  return {
    kind: 'browser',
    request: (channel) =>
      Promise.reject(
        new ApiError(ClientErrorCode.NO_TOKEN, 'This page has no access token. Open the address that `baton serve` printed (it ends in ?token=…).', channel),
      ),
    subscribe: () => () => undefined,
    connection: () => state,
    onConnection: () => () => undefined,
    close: () => undefined,
  };
}
