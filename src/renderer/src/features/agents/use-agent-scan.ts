import { useCallback, useEffect, useRef, useState } from 'react';
import { toApiError, type ApiError, type BatonApi } from '../../api';
import { invokeEarly } from '../../api/early-requests';
import { AGENT_FIRST_PAGE, AGENT_PAGE_SIZE, type AgentCandidate } from '../../../../shared/agents';
import type { UiEventPayload } from '../../../../shared/ui-contract';
import { useReconnect } from '../../hooks/use-connection';

export interface AgentScanState {
  candidates: readonly AgentCandidate[];
  /** Candidates the host has in all: more than `candidates` while the rest streams in, so counts are right from the first answer. */
  total?: number;
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

/** The first page of the list: ask-first-screen.ts asks it before the first render, this hook takes that answer. */
export const FIRST_AGENT_PAGE_REQUEST = { offset: 0, limit: AGENT_FIRST_PAGE };

/**
 * Claude Code and Codex sessions on this machine, scanned once after the first screen is up and
 * again when asked (or when the connection comes back). Candidates from the last good scan stay
 * on screen while a new one runs or fails. The host answers the newest AGENT_FIRST_PAGE first
 * (with the total), then the rest in pages of AGENT_PAGE_SIZE: 20,000 candidates in one answer
 * kept the first screen waiting for all of them (issue 15).
 */
export function useAgentScan(api: BatonApi): AgentScanState {
  const [state, setState] = useState<Omit<AgentScanState, 'rescan'>>({ candidates: EMPTY, total: 0, scanning: true, error: undefined, settled: false, progress: undefined });
  const generation = useRef(0);

  /** `quiet`: a live update from the host (a watched file changed); the list is swapped without a spinner. */
  const fetchList = useCallback(
    (quiet: boolean) => {
      const mine = ++generation.current;
      if (!quiet) setState((s) => ({ ...s, scanning: true }));
      const stream = async () => {
        const first = await invokeEarly(api, 'agents:list', FIRST_AGENT_PAGE_REQUEST);
        if (mine !== generation.current) return;
        // An older host answers everything at once, without a total.
        const total = first.total ?? first.candidates.length;
        let got = first.candidates;
        // A host still on its first scan answers the rows read so far: keep the progress line up.
        const scanning = first.scanning === true;
        setState((s) => ({ candidates: got, total, scanning, error: undefined, settled: true, progress: scanning ? s.progress : undefined }));
        // While the host still scans, the first page is enough: the rest would be fetched again
        // at the next agents:changed, competing with the scan for the same cores.
        while (!scanning && got.length < total) {
          const page = await api.invoke('agents:list', { offset: got.length, limit: AGENT_PAGE_SIZE });
          if (mine !== generation.current) return;
          // The set changed between pages (agents:changed follows and starts over); stop mixing versions.
          if (page.version !== first.version || page.candidates.length === 0) return;
          got = got.concat(page.candidates);
          const shown = got;
          setState((s) => ({ ...s, candidates: shown }));
        }
      };
      stream().catch((error: unknown) => {
        if (mine === generation.current) setState((s) => ({ ...s, scanning: false, error: toApiError(error, 'agents:list'), settled: true }));
      });
    },
    [api],
  );
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
