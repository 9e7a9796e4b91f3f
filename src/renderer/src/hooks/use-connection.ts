import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { BatonApi, ConnectionState } from '../api';

export function useConnection(api: BatonApi): ConnectionState {
  return useSyncExternalStore(
    (onChange) => api.onConnection(onChange),
    () => api.connection(),
  );
}

/**
 * Calls `onReconnect` when the connection comes back after a drop: events may have been missed
 * while it was down, so what is on screen must be fetched again.
 */
export function useReconnect(api: BatonApi, onReconnect: () => void): void {
  const callback = useRef(onReconnect);
  callback.current = onReconnect;
  useEffect(() => {
    let dropped = api.connection().status === 'reconnecting';
    return api.onConnection((state) => {
      if (state.status === 'reconnecting') dropped = true;
      else if (state.status === 'connected' && dropped) {
        dropped = false;
        callback.current();
      }
    });
  }, [api]);
}
