import type { ListFilter, ListGroup } from '../../core/importers/candidate-list.js';

export interface HostedList {
  groups: ListGroup[];
  total: number;
  notes: string[];
  agentScan: { files: number; ms: number; host?: boolean } | null;
}

/** Asks a running host for the listing; null when none runs (the CLI scans itself). */
export async function listFromHost(_request: { agents: boolean; filter: ListFilter; limit?: number }): Promise<HostedList | null> {
  return null;
}
