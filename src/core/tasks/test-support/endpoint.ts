import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { connectEndpoint } from '../../transport/client.js';
import { resolveEndpoint } from '../../transport/endpoint.js';
import { startEndpointServer } from '../../transport/server.js';
import type { EndpointClient, EndpointInfo, EndpointServer, RequestHandler } from '../../transport/types.js';

/** A real endpoint server (socket + token handshake) in a temp data dir, serving `methods`. */
export interface MethodsEndpoint {
  dataDir: string;
  endpoint: EndpointInfo;
  token: Buffer;
  server: EndpointServer;
  connect(): Promise<EndpointClient>;
  dispose(): Promise<void>;
}

export function methodsHandler(methods: Record<string, RequestHandler>): RequestHandler {
  return async (request, connection) => {
    const handler = Object.hasOwn(methods, request.method) ? methods[request.method] : undefined;
    if (!handler) return { ok: false, code: 'UNKNOWN_METHOD', message: `unknown method ${request.method}` };
    return handler(request, connection);
  };
}

export async function tempDataDir(prefix = 'baton-at-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

/** Starts the server in `dataDir` where `baton` CLI children find it (BATON_HOME=dataDir, no XDG_RUNTIME_DIR). */
export async function startMethodsEndpoint(dataDir: string, methods: Record<string, RequestHandler>, options: { writeToken?: boolean } = {}): Promise<MethodsEndpoint> {
  const endpoint = resolveEndpoint(dataDir, {}, process.platform);
  let token: Buffer = randomBytes(32);
  if (options.writeToken !== false) {
    const { loadOrCreateToken } = await import('../../transport/endpoint.js');
    token = await loadOrCreateToken(endpoint.tokenPath);
  }
  const server = await startEndpointServer({ endpoint, token, handle: methodsHandler(methods) });
  const clients: EndpointClient[] = [];
  return {
    dataDir,
    endpoint,
    token,
    server,
    async connect() {
      const client = await connectEndpoint({ endpoint, token });
      clients.push(client);
      return client;
    },
    async dispose() {
      for (const c of clients) c.close();
      await server.close();
    },
  };
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** Waits until `check` is true, polling; fails with `what` after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
