import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { clientProof } from '../auth.js';
import { resolveEndpoint } from '../endpoint.js';
import { startEndpointServer } from '../server.js';
import type { CredentialRegistry } from '../session-credentials.js';
import type { EndpointInfo, EndpointServer, Limits, RequestHandler } from '../types.js';
import { RawPeer } from './raw-peer.js';

export interface TestEndpoint {
  root: string;
  endpoint: EndpointInfo;
  token: Buffer;
  server: EndpointServer;
  /** Every request the handler saw (to prove none arrived before authentication). */
  handled: Array<{ method: string; params: unknown }>;
  dispose(): Promise<void>;
}

/** An echo handler: answers {ok:true, echo: params}, or runs `handle` when given. */
export async function startTestEndpoint(options: { handle?: RequestHandler; limits?: Partial<Limits>; credentials?: CredentialRegistry } = {}): Promise<TestEndpoint> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'baton-tr-'));
  const endpoint = resolveEndpoint(root, {}, 'linux');
  const token = randomBytes(32);
  const handled: TestEndpoint['handled'] = [];
  const server = await startEndpointServer({
    endpoint,
    token,
    limits: options.limits,
    credentials: options.credentials,
    handle: async (request, connection) => {
      handled.push({ method: request.method, params: request.params });
      if (options.handle) return options.handle(request, connection);
      return { ok: true, echo: request.params };
    },
  });
  return {
    root,
    endpoint,
    token,
    server,
    handled,
    async dispose() {
      await server.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Connects raw, reads the hello and answers it with a valid proof; returns the peer after the ack. */
export async function rawAuthenticated(address: string, token: Buffer): Promise<RawPeer> {
  const peer = await RawPeer.connect(address);
  const hello = await peer.nextFrame();
  if (!hello || typeof hello.nonce !== 'string') throw new Error('no hello');
  peer.sendFrame({ type: 'auth', version: '1.0', proof: clientProof(token, hello.nonce) });
  const ack = await peer.nextFrame();
  if (ack?.type !== 'authenticated') throw new Error(`no ack: ${JSON.stringify(ack)}`);
  return peer;
}
