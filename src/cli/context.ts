import { resolveDataDir } from '../core/paths.js';
import { openStore } from '../core/store/index.js';
import type { SessionStore } from '../core/store/types.js';
import { ensureEndpointDir, loadOrCreateToken, resolveEndpoint } from '../core/transport/endpoint.js';
import type { EndpointInfo } from '../core/transport/types.js';

export interface CliContext {
  dataDir: string;
  store: SessionStore;
}

export async function openCliStore(): Promise<CliContext> {
  const dataDir = resolveDataDir();
  return { dataDir, store: await openStore(dataDir) };
}

export async function endpointFor(dataDir: string): Promise<{ endpoint: EndpointInfo; token: Buffer }> {
  const endpoint = resolveEndpoint(dataDir);
  await ensureEndpointDir(endpoint.dir);
  return { endpoint, token: await loadOrCreateToken(endpoint.tokenPath) };
}

/** The command that picks a saved session up again. Session ids are [A-Za-z0-9._-] (shared/ids.ts), so it needs no shell quoting. */
export function resumeCommand(sessionId: string): string {
  return `baton handoff --session ${sessionId}`;
}
