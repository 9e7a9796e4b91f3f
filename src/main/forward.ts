import { connectEndpoint } from '../core/transport/client.js';
import { loadOrCreateToken, resolveEndpoint } from '../core/transport/endpoint.js';
import type { DeepLinkQueue } from './deep-links.js';

/** What happened to this instance's links: whether the other host answered, and which sessions it opened. */
export interface ForwardResult {
  reached: boolean;
  address: string;
  opened: string[];
  failed: string[];
}

/** Sends the links this instance received to the host that owns the endpoint (`session.open`). */
export async function forwardToRunningHost(dataDir: string, links: DeepLinkQueue): Promise<ForwardResult> {
  const endpoint = resolveEndpoint(dataDir);
  const result: ForwardResult = { reached: false, address: endpoint.address, opened: [], failed: [] };
  const token = await loadOrCreateToken(endpoint.tokenPath);
  const client = await connectEndpoint({ endpoint, token, timeoutMs: 2_000 }).catch(() => null);
  if (!client) return result;
  result.reached = true;
  const sessions: string[] = [];
  links.onReady((link) => {
    if (link.kind === 'session' || link.kind === 'handoff') sessions.push(link.sessionId);
  });
  for (const sessionId of sessions) {
    const answer = await client.request('session.open', { sessionId }).catch(() => ({ ok: false }));
    (answer.ok ? result.opened : result.failed).push(sessionId);
  }
  client.close();
  return result;
}
