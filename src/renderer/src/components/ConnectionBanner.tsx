import type { ConnectionState } from '../api';

function describe(state: ConnectionState): { text: string; tone: 'warn' | 'error' } | null {
  switch (state.status) {
    case 'connected':
    case 'connecting':
      // The first connection takes milliseconds; the list shows it is loading meanwhile.
      return null;
    case 'reconnecting': {
      const seconds = Math.max(1, Math.round(state.retryInMs / 1000));
      return { text: `Connection to Baton lost. Reconnecting (attempt ${state.attempt}, next try in ${seconds} s)…`, tone: 'warn' };
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
