import { useCallback } from 'react';
import { useApi } from '../../hooks/api-context';
import { useRemote } from '../../hooks/use-remote';
import { relayLabel } from './relay-label';

/** Relay status in the sidebar footer; opens the Devices panel. */
export function RelayFooter({ pressed, onOpen }: { pressed: boolean; onOpen: () => void }) {
  const api = useApi();
  const load = useCallback(() => api.invoke('relay:status', {}), [api]);
  const status = useRemote('relay:status', load);
  const label = status.value === undefined ? 'Relay …' : relayLabel(status.value);
  return (
    <button
      type="button"
      className="button-link footer-link"
      aria-pressed={pressed}
      data-testid="open-devices"
      data-relay-state={status.value?.state ?? 'unknown'}
      title={status.value?.url ?? 'No relay: sessions stay on this machine'}
      onClick={onOpen}
    >
      {label}
    </button>
  );
}
