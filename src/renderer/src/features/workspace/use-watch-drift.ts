import { useEffect } from 'react';
import type { BatonApi } from '../../api';

/**
 * While the Changes tab is open the host watches the handed-off files; `onDrift` runs when one
 * changes on disk, so the status banner follows the disk without a reload. The watch stops when
 * the tab closes (or the session changes); a host that cannot watch leaves the "Check again" button.
 */
export function useWatchDrift(api: BatonApi, sessionId: string, enabled: boolean, onDrift: () => void): void {
  useEffect(() => api.on('workspace:drift', (event) => event.sessionId === sessionId && onDrift()), [api, sessionId, onDrift]);
  useEffect(() => {
    if (!enabled) return;
    let watchId: string | null = null;
    let closed = false;
    api.invoke('workspace:watch', { sessionId }).then(
      (started) => {
        watchId = started.watchId;
        if (closed) void api.invoke('workspace:unwatch', { watchId }).catch(() => undefined);
      },
      () => undefined, // no watch: the banner still has "Check again"
    );
    return () => {
      closed = true;
      if (watchId !== null) void api.invoke('workspace:unwatch', { watchId }).catch(() => undefined);
    };
  }, [api, sessionId, enabled]);
}
