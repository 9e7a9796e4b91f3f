import { connectEndpoint } from '../core/transport/client.js';
import { loadOrCreateToken, resolveEndpoint } from '../core/transport/endpoint.js';
import type { DeepLinkQueue } from './deep-links.js';

/** Sends the links this instance received to the host that owns the endpoint (`session.open`). */
export async function forwardToRunningHost(dataDir: string, links: DeepLinkQueue): Promise<void> {
  const endpoint = resolveEndpoint(dataDir);
  const token = await loadOrCreateToken(endpoint.tokenPath);
  const client = await connectEndpoint({ endpoint, token, timeoutMs: 2_000 }).catch(() => null);
  if (!client) return;
  const sessions: string[] = [];
  links.onReady((link) => {
    if (link.kind === 'session' || link.kind === 'handoff') sessions.push(link.sessionId);
  });
  for (const sessionId of sessions) await client.request('session.open', { sessionId }).catch(() => undefined);
  client.close();
}
