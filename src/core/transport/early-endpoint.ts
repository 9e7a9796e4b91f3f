import { createCredentialRegistry, type CredentialRegistry } from './session-credentials.js';
import { startEndpointServer } from './server.js';
import type { EndpointInfo, EndpointServer, RequestHandler } from './types.js';

/**
 * The local endpoint held before the host's services exist: `baton serve` announces its address
 * with the receiver already listening (single instance decided, a CLI handoff accepted), then
 * loads and starts the services (issue 15). Connections authenticate at once; their requests wait
 * until `serve` hands over the real handler.
 */
export interface EarlyEndpoint {
  readonly server: EndpointServer;
  /** The token its handshake checks (read once by `baton serve`; the services take it from here). */
  readonly token: Buffer;
  /** The remote gate's one-time credentials (`baton ssh`), checked by the handshake from the start. */
  readonly credentials: CredentialRegistry;
  serve(handle: RequestHandler): void;
}

export async function listenEarly(endpoint: EndpointInfo, token: Buffer): Promise<EarlyEndpoint> {
  const credentials = createCredentialRegistry();
  let serve!: (handle: RequestHandler) => void;
  const handler = new Promise<RequestHandler>((resolve) => (serve = resolve));
  const server = await startEndpointServer({ endpoint, token, credentials, handle: async (request, connection) => (await handler)(request, connection) });
  return { server, token, credentials, serve };
}
