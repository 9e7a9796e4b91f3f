import type { RelayStatusView } from '../../../../shared/ui-contract';

/** The footer's words for the relay state. */
export function relayLabel(status: RelayStatusView): string {
  switch (status.state) {
    case 'off':
      return 'Relay off';
    case 'connecting':
      return 'Relay connecting…';
    case 'online':
      return `Relay online${status.device ? ` · ${status.device.name}` : ''}`;
    case 'error':
      return 'Relay unreachable';
  }
}
