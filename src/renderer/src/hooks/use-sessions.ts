import { useCallback, useEffect } from 'react';
import type { BatonApi } from '../api';
import type { IndexRow } from '../../../shared/session';
import { useReconnect } from './use-connection';
import { useRemote, type Remote } from './use-remote';

/** The resume candidates, fetched again whenever a session changes or the connection comes back. */
export function useSessions(api: BatonApi): Remote<IndexRow[]> {
  const load = useCallback(() => api.invoke('sessions:list', {}), [api]);
  const remote = useRemote('sessions:list', load);
  const { reload } = remote;
  useEffect(() => api.on('session:changed', () => reload()), [api, reload]);
  useReconnect(api, reload);
  return remote;
}
