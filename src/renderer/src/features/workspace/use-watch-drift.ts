import { useEffect } from 'react';
import type { BatonApi } from '../../api';

/**
 * While the Changes tab is open the host watches the handed-off files; `onDrift` runs when one
 * changes on disk, so the status banner follows the disk without a reload. The watch is a lease
 * renewed every third of its length and stopped when the tab closes (or the session changes); a
 * host that cannot watch leaves the "Check again" button.
 */
export function useWatchDrift(api: BatonApi, sessionId: string, enabled: boolean, onDrift: () => void): void {
  useEffect(() => api.on('workspace:drift', (event) => event.sessionId === sessionId && onDrift()), [api, sessionId, onDrift]);
  useEffect(() => {
    if (!enabled) return;
    let watchId: string | null = null;
    let closed = false;
    let timer: ReturnType<typeof setInterval> | null = null;
    const hold = () =>
      api.invoke('workspace:watch', { sessionId, ...(watchId !== null ? { renew: watchId } : {}) }).then(
        (lease) => {
          if (closed) {
            void api.invoke('workspace:unwatch', { watchId: lease.watchId }).catch(() => undefined);
            return;
          }
          watchId = lease.watchId;
          timer ??= setInterval(() => void hold(), Math.max(1_000, Math.floor(lease.leaseMs / 3)));
        },
        () => undefined, // no watch: the banner still has "Check again"
      );
    void hold();
    return () => {
      closed = true;
      if (timer !== null) clearInterval(timer);
      if (watchId !== null) void api.invoke('workspace:unwatch', { watchId }).catch(() => undefined);
    };
  }, [api, sessionId, enabled]);
}
