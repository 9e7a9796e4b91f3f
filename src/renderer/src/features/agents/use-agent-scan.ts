import { useCallback, useEffect, useRef, useState } from 'react';
import { toApiError, type ApiError, type BatonApi } from '../../api';
import type { AgentCandidate } from '../../../../shared/agents';
import { useReconnect } from '../../hooks/use-connection';

export interface AgentScanState {
  candidates: readonly AgentCandidate[];
  /** True while a scan is running (the first one can take a while on a big ~/.claude). */
  scanning: boolean;
  error: ApiError | undefined;
  /** True once one scan has answered (success or failure). */
  settled: boolean;
  rescan: () => void;
}

const EMPTY: readonly AgentCandidate[] = [];

/**
 * Claude Code and Codex sessions on this machine, scanned once after the first screen is up and
 * again when asked (or when the connection comes back). Candidates from the last good scan stay
 * on screen while a new one runs or fails.
 */
export function useAgentScan(api: BatonApi): AgentScanState {
  const [state, setState] = useState<Omit<AgentScanState, 'rescan'>>({ candidates: EMPTY, scanning: true, error: undefined, settled: false });
  const generation = useRef(0);

  const rescan = useCallback(() => {
    const mine = ++generation.current;
    setState((s) => ({ ...s, scanning: true }));
    api.invoke('agents:list', {}).then(
      (scan) => {
        if (mine === generation.current) setState({ candidates: scan.candidates, scanning: false, error: undefined, settled: true });
      },
      (error: unknown) => {
        if (mine === generation.current) setState((s) => ({ ...s, scanning: false, error: toApiError(error, 'agents:list'), settled: true }));
      },
    );
  }, [api]);

  useEffect(() => {
    rescan();
    return () => {
      generation.current += 1;
    };
  }, [rescan]);
  useReconnect(api, rescan);

  return { ...state, rescan };
}
