import type { ConnectionState } from '../api';

function describe(state: ConnectionState): { text: string; tone: 'warn' | 'error' } | null {
  switch (state.status) {
    case 'connected':
    case 'connecting':
      // The first connection takes milliseconds; the list shows it is loading meanwhile.
      return null;
    case 'reconnecting': {
      const seconds = Math.max(1, Math.round(state.retryInMs / 1000));
      const retry = `attempt ${state.attempt}, next try in ${seconds} s`;
      if (!state.connectedBefore) {
        return { text: `Cannot reach Baton at this address. Is \`baton serve\` still running? Retrying (${retry})…`, tone: 'error' };
      }
      return { text: `Connection to Baton lost. Reconnecting (${retry})…`, tone: 'warn' };
    }
    case 'no-token':
      return { text: 'No access token. Open the address that `baton serve` printed; it ends in ?token=…', tone: 'error' };
    case 'closed':
      return { text: 'Disconnected from Baton. Reload the page to connect again.', tone: 'error' };
  }
}

/** Says why the data may be stale; absent while connected. */
export function ConnectionBanner({ state }: { state: ConnectionState }) {
  const message = describe(state);
  if (message === null) return null;
  return (
    <div className={`banner banner-${message.tone}`} data-testid="connection-banner" data-status={state.status} role="status" aria-live="polite">
      {state.status === 'reconnecting' && <span className="spinner" aria-hidden="true" />}
      {message.text}
    </div>
  );
}
