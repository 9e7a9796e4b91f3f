import type { CredentialInfo } from './session-credentials.js';

/**
 * The local endpoint's public contract (ARCHITECTURE.md §6). Implemented in this folder:
 * endpoint.ts (paths, directory checks, token), server.ts (startEndpointServer), client.ts (connectEndpoint).
 */
export interface EndpointInfo {
  /** 0700 per-user directory holding the socket (and the published pipe name on Windows). */
  dir: string;
  /** Unix socket path, or \\.\pipe\baton-<random> on Windows. */
  address: string;
  /** 0600 file with the 32-byte token, under the data dir. */
  tokenPath: string;
}

/** Every answer on the wire: `{ok: true, ...}` or `{ok: false, code, message}`. */
export type Answer = ({ ok: true } & Record<string, unknown>) | { ok: false; code: string; message: string; [key: string]: unknown };

export interface IncomingRequest {
  id: string;
  method: string;
  params: unknown;
}

export interface ConnectionContext {
  /** Fires when the peer disconnects (approvals answer `deny` then). */
  readonly signal: AbortSignal;
  /**
   * The session credential this connection authenticated with (a remote box through `baton ssh`,
   * issue 22), or absent when it used the long-lived token (a local process).
   */
  readonly credential?: CredentialInfo;
}

export type RequestHandler = (request: IncomingRequest, connection: ConnectionContext) => Promise<Answer>;

export interface EndpointServer {
  readonly address: string;
  /** Failed proofs since start (observability, tests). */
  readonly failedProofs: number;
  close(): Promise<void>;
}

export interface EndpointClient {
  request(method: string, params: unknown, options?: { timeoutMs?: number }): Promise<Answer>;
  close(): void;
}

/** Per-server limits; defaults come from src/shared/wire.ts. Tests shrink them. */
export interface Limits {
  /** Largest frame after authentication; bigger → FRAME_TOO_LARGE, then close. */
  maxFrameBytes: number;
  /** Largest frame before authentication (auth frames are tiny). */
  maxHandshakeFrameBytes: number;
  /** No frame in flight and nothing to answer, or one frame still arriving, for this long → close. */
  idleTimeoutMs: number;
  /** Accept → verified proof must take less than this. */
  handshakeTimeoutMs: number;
  /** Requests handled at once per connection; beyond it the socket stops reading (backpressure). */
  maxInflight: number;
  /** Open connections at once; one more is answered BUSY and closed before any hello. */
  maxConnections: number;
}
