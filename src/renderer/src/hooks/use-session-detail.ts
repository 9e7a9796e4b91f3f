import { useCallback, useEffect } from 'react';
import type { BatonApi } from '../api';
import type { SessionDetail } from '../../../shared/ui-contract';
import { useReconnect } from './use-connection';
import { useRemote, type Remote } from './use-remote';

/** One session with its messages; fetched again when that session changes or the connection returns. */
export function useSessionDetail(api: BatonApi, id: string | null): Remote<SessionDetail> {
  const load = useCallback(() => api.invoke('session:get', { id: id ?? '' }), [api, id]);
  const remote = useRemote(`session:get:${id ?? ''}`, id === null ? null : load);
  const { reload } = remote;
  useEffect(
    () =>
      api.on('session:changed', (event) => {
        if (event.id === id) reload();
      }),
    [api, id, reload],
  );
  useReconnect(api, () => {
    if (id !== null) reload();
  });
  return remote;
}
