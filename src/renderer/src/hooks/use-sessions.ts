import { useCallback, useEffect } from 'react';
import type { BatonApi } from '../api';
import { invokeEarly } from '../api/early-requests';
import type { IndexRow } from '../../../shared/session';
import { useReconnect } from './use-connection';
import { useRemote, type Remote } from './use-remote';

/** What the list asks: ask-first-screen.ts asks it before the first render, the first load takes that answer. */
export const SESSIONS_LIST_REQUEST = {};

/** The resume candidates, fetched again whenever a session changes or the connection comes back. */
export function useSessions(api: BatonApi): Remote<IndexRow[]> {
  const load = useCallback(() => invokeEarly(api, 'sessions:list', SESSIONS_LIST_REQUEST), [api]);
  const remote = useRemote('sessions:list', load);
  const { reload } = remote;
  useEffect(() => api.on('session:changed', () => reload()), [api, reload]);
  useReconnect(api, reload);
  return remote;
}
