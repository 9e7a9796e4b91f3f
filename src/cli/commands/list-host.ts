import { existsSync } from 'node:fs';
import type { ListFilter } from '../../core/importers/candidate-list.js';
import { resolveDataDir } from '../../core/paths.js';
import { connectEndpoint } from '../../core/transport/client.js';
import { loadOrCreateToken, resolveEndpoint } from '../../core/transport/endpoint.js';

/** A host that does not answer this fast is treated as absent: the CLI scans itself instead. */
export const HOST_CONNECT_TIMEOUT_MS = 1_000;
/** Budget of the whole listing once connected (the host may still be finishing its first scan). */
export const HOST_LIST_TIMEOUT_MS = 60_000;

export interface HostListRequest {
  agents: boolean;
  filter: ListFilter;
  limit?: number;
}

/**
 * Asks a running host (desktop or `baton serve`) for the `baton list --json` document over the
 * authenticated socket: method `candidates.list`, first part in the answer, the other parts
 * requested together. Null when no host runs or it cannot answer (an older host): the caller
 * falls back to its own scan.
 */
export async function listFromHost(request: HostListRequest, dataDir = resolveDataDir()): Promise<string | null> {
  const endpoint = resolveEndpoint(dataDir);
  if (process.platform !== 'win32' && !existsSync(endpoint.address)) return null;
  let client;
  try {
    const token = await loadOrCreateToken(endpoint.tokenPath);
    client = await connectEndpoint({ endpoint, token, timeoutMs: HOST_CONNECT_TIMEOUT_MS });
  } catch {
    return null; // a socket file left behind by a host that is gone
  }
  try {
    const params = { agents: request.agents, cwd: request.filter.cwd, source: request.filter.source, limit: request.limit };
    const first = await client.request('candidates.list', params, { timeoutMs: HOST_LIST_TIMEOUT_MS });
    if (!first.ok || typeof first.text !== 'string' || typeof first.parts !== 'number') return null;
    if (first.parts === 1) return first.text;
    const listing = first.listing;
    const rest = await Promise.all(
      Array.from({ length: first.parts - 1 }, (_, k) => client.request('candidates.list', { listing, part: k + 1 }, { timeoutMs: HOST_LIST_TIMEOUT_MS })),
    );
    if (rest.some((a) => !a.ok || typeof a.text !== 'string')) return null;
    return first.text + rest.map((a) => a.text as string).join('');
  } catch {
    return null;
  } finally {
    client.close();
  }
}
