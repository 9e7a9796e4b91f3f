import { useCallback, useEffect, useRef, useState } from 'react';
import { toApiError, type ApiError, type BatonApi } from '../../api';
import type { AgentCandidate } from '../../../../shared/agents';
import type { UiEventPayload } from '../../../../shared/ui-contract';
import { useReconnect } from '../../hooks/use-connection';

export interface AgentScanState {
  candidates: readonly AgentCandidate[];
  /** True while a scan is running (the first one can take a while on a big ~/.claude). */
  scanning: boolean;
  error: ApiError | undefined;
  /** True once one scan has answered (success or failure). */
  settled: boolean;
  /** While the host reads session files (a cold scan): which tool, how many of how many. */
  progress?: UiEventPayload<'agents:progress'>;
  rescan: () => void;
}

const EMPTY: readonly AgentCandidate[] = [];

/**
 * Claude Code and Codex sessions on this machine, scanned once after the first screen is up and
 * again when asked (or when the connection comes back). Candidates from the last good scan stay
 * on screen while a new one runs or fails.
 */
export function useAgentScan(api: BatonApi): AgentScanState {
  const [state, setState] = useState<Omit<AgentScanState, 'rescan'>>({ candidates: EMPTY, scanning: true, error: undefined, settled: false, progress: undefined });
  const generation = useRef(0);

  /** `quiet`: a live update from the host (a watched file changed); the list is swapped without a spinner. */
  const fetchList = useCallback((quiet: boolean) => {
    const mine = ++generation.current;
    if (!quiet) setState((s) => ({ ...s, scanning: true }));
    api.invoke('agents:list', {}).then(
      (scan) => {
        if (mine === generation.current) setState({ candidates: scan.candidates, scanning: false, error: undefined, settled: true, progress: undefined });
      },
      (error: unknown) => {
        if (mine === generation.current) setState((s) => ({ ...s, scanning: false, error: toApiError(error, 'agents:list'), settled: true }));
      },
    );
  }, [api]);
  const rescan = useCallback(() => fetchList(false), [fetchList]);

  // The host keeps the candidates warm and says when they change: no rescan, no spinner.
  useEffect(() => api.on('agents:changed', () => fetchList(true)), [api, fetchList]);
  useEffect(() => api.on('agents:progress', (progress) => setState((s) => (s.settled && !s.scanning ? s : { ...s, progress }))), [api]);

  useEffect(() => {
    rescan();
    return () => {
      generation.current += 1;
    };
  }, [rescan]);
  useReconnect(api, rescan);

  return { ...state, rescan };
}
