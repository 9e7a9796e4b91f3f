import { useCallback, useEffect, useState } from 'react';
import type { ComposerStatus, RunView } from '../../../../shared/agent-run';
import { toApiError, type ApiError } from '../../api';
import { useApi } from '../../hooks/api-context';

export type ComposerState = { kind: 'loading' } | { kind: 'failed'; error: ApiError } | { kind: 'ready'; status: ComposerStatus };

/**
 * The composer's state for one session: `composer:status` once, then every `composer:event`
 * folded into the run it belongs to (a new run replaces the last one), and the status again when
 * a run ends (the queued follow-up may have started).
 */
export function useComposer(sessionId: string): { state: ComposerState; refresh: () => void; setStatus: (status: ComposerStatus) => void } {
  const api = useApi();
  const [state, setState] = useState<ComposerState>({ kind: 'loading' });
  const refresh = useCallback(() => {
    api.invoke('composer:status', { sessionId }).then(
      (status) => setState({ kind: 'ready', status }),
      (error: unknown) => setState({ kind: 'failed', error: toApiError(error, 'composer:status') }),
    );
  }, [api, sessionId]);
  useEffect(() => {
    setState({ kind: 'loading' });
    refresh();
  }, [refresh]);
  useEffect(
    () =>
      api.on('composer:event', (payload) => {
        if (payload.sessionId !== sessionId) return;
        setState((current) => {
          if (current.kind !== 'ready') return current;
          const run: RunView | null = current.status.run;
          const same = run !== null && run.runId === payload.runId;
          // A run this window has not seen yet (the queued follow-up, another window's send): refetch.
          if (!same) {
            refresh();
            return current;
          }
          return { kind: 'ready', status: { ...current.status, run: { ...run, state: payload.state, events: [...run.events, payload.event] } } };
        });
        if (payload.event.kind === 'finished') refresh();
      }),
    [api, sessionId, refresh],
  );
  // An answer can be older than the events already folded in: keep the fuller view of the same run.
  const setStatus = useCallback(
    (status: ComposerStatus) =>
      setState((current) => {
        const mine = current.kind === 'ready' ? current.status.run : null;
        const keep = mine !== null && status.run !== null && mine.runId === status.run.runId && mine.events.length > status.run.events.length;
        return { kind: 'ready', status: keep ? { ...status, run: mine } : status };
      }),
    [],
  );
  return { state, refresh, setStatus };
}
