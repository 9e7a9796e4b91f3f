import { chmod, lstat, unlink } from 'node:fs/promises';
import net from 'node:net';
import {
  HANDSHAKE_TIMEOUT_MS,
  IDLE_TIMEOUT_MS,
  MAX_FRAME_BYTES,
  MAX_HANDSHAKE_FRAME_BYTES,
  encodeFrame,
} from '../../shared/wire.js';
import { ensureEndpointDir, MAX_SOCKET_PATH_BYTES, publishPipeName } from './endpoint.js';
import { TransportError, TransportErrorCode, errnoOf } from './errors.js';
import { CLOSE_GRACE_MS, ServerConnection } from './server-connection.js';
import type { CredentialRegistry } from './session-credentials.js';
import type { EndpointInfo, EndpointServer, Limits, RequestHandler } from './types.js';

/**
 * Open connections one endpoint serves at once. A handoff, a hook or a task uses one for a few
 * seconds; thousands at once is a runaway script, and each costs a socket and a timer.
 */
export const MAX_ENDPOINT_CONNECTIONS = 128;

/**
 * The receiving end of the local endpoint (desktop main process or `baton serve`).
 *
 * Single instance: if the address is taken, we try to connect to it. ECONNREFUSED means a
 * crashed owner left its socket behind: unlink it and listen again, once. A live owner means
 * another instance runs: reject with ALREADY_RUNNING so the caller can forward to it with the
 * client (VS Code's rule). Windows: pipes vanish with their owner, so EADDRINUSE is always live.
 */
export const DEFAULT_LIMITS: Limits = {
  maxFrameBytes: MAX_FRAME_BYTES,
  maxHandshakeFrameBytes: MAX_HANDSHAKE_FRAME_BYTES,
  idleTimeoutMs: IDLE_TIMEOUT_MS,
  handshakeTimeoutMs: HANDSHAKE_TIMEOUT_MS,
  maxInflight: 16,
  maxConnections: MAX_ENDPOINT_CONNECTIONS,
};
/** Probing a possibly stale socket: a live owner accepts at once; a dead one refuses at once. */
const PROBE_TIMEOUT_MS = 2_000;

export interface StartEndpointServerOptions {
  endpoint: EndpointInfo;
  token: Buffer;
  /** One-time session credentials (`baton ssh`, issue 22) the handshake also accepts. */
  credentials?: CredentialRegistry;
  handle: RequestHandler;
  limits?: Partial<Limits>;
}

function listenOnce(address: string, onConnection: (socket: net.Socket) => void): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer({ pauseOnConnect: false }, onConnection);
    const onError = (error: Error): void => {
      server.close();
      reject(error);
    };
    server.once('error', onError);
    server.listen(address, () => {
      server.off('error', onError);
      resolve(server);
    });
  });
}

/** 'live' when something accepts a connection at `address`, 'stale' when nothing does. */
function probe(address: string): Promise<'live' | 'stale'> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(address);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve('live'); // it accepted nothing, but it did not refuse either: do not steal it
    }, PROBE_TIMEOUT_MS);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve('live');
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      const code = errnoOf(error);
      if (code === 'ECONNREFUSED' || code === 'ENOENT') resolve('stale');
      else reject(error);
    });
  });
}

function alreadyRunning(address: string): TransportError {
  return new TransportError('ALREADY_RUNNING', `another Baton already listens at ${address}; forward the request to it instead`, address);
}

async function listenWithStaleCheck(address: string, onConnection: (socket: net.Socket) => void): Promise<net.Server> {
  try {
    return await listenOnce(address, onConnection);
  } catch (error) {
    if (errnoOf(error) !== 'EADDRINUSE') {
      throw new TransportError('IO_ERROR', `cannot listen at ${address}: ${String(error)}`, address, { cause: error });
    }
  }
  if (process.platform === 'win32') throw alreadyRunning(address);
  const owner = await probe(address).catch((error: unknown) => {
    throw new TransportError('IO_ERROR', `${address} is taken and cannot be probed (${errnoOf(error) ?? String(error)}); remove it if no Baton is running`, address, { cause: error });
  });
  if (owner === 'live') throw alreadyRunning(address);
  const stat = await lstat(address).catch(() => null);
  if (stat && !stat.isSocket()) {
    throw new TransportError('UNSAFE_ENDPOINT', `${address} exists and is not a socket; move it away so Baton can listen there`, address);
  }
  await unlink(address).catch((error: unknown) => {
    if (errnoOf(error) !== 'ENOENT') throw error;
  });
  try {
    return await listenOnce(address, onConnection);
  } catch (error) {
    // Someone else replaced the stale socket between our unlink and listen: they won.
    if (errnoOf(error) === 'EADDRINUSE') throw alreadyRunning(address);
    throw new TransportError('IO_ERROR', `cannot listen at ${address}: ${String(error)}`, address, { cause: error });
  }
}

/** Said instead of the hello, so the client reports why rather than "closed before saying hello". */
function refuseBusy(socket: net.Socket, max: number): void {
  socket.on('error', () => socket.destroy());
  const message = `Baton already serves ${max} connections; retry when some have finished`;
  socket.end(encodeFrame({ type: 'answer', id: null, ok: false, code: TransportErrorCode.BUSY, message }));
  socket.setTimeout(CLOSE_GRACE_MS, () => socket.destroy());
}

export async function startEndpointServer(options: StartEndpointServerOptions): Promise<EndpointServer> {
  const { endpoint, token, handle } = options;
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  if (token.length !== 32) throw new TransportError('BAD_TOKEN', `the token must be 32 bytes, got ${token.length}`, endpoint.tokenPath);
  const isPipe = process.platform === 'win32';
  if (!isPipe && Buffer.byteLength(endpoint.address) > MAX_SOCKET_PATH_BYTES) {
    throw new TransportError('IO_ERROR', `the socket path ${endpoint.address} is longer than ${MAX_SOCKET_PATH_BYTES} bytes; ${process.env.XDG_RUNTIME_DIR ? 'set a shorter XDG_RUNTIME_DIR (it decides where the socket lives)' : 'set XDG_RUNTIME_DIR or a shorter BATON_HOME'}`, endpoint.address);
  }
  await ensureEndpointDir(endpoint.dir);

  const connections = new Set<ServerConnection>();
  let failedProofs = 0;
  let closing = false;
  const hooks = {
    token: Buffer.from(token), // our own copy: the caller may zero theirs
    credentials: options.credentials,
    handle,
    limits,
    onFailedProof: () => {
      failedProofs += 1;
    },
    onClosed: (connection: ServerConnection) => {
      connections.delete(connection);
    },
  };
  const server = await listenWithStaleCheck(endpoint.address, (socket) => {
    if (closing) {
      socket.destroy();
      return;
    }
    if (connections.size >= limits.maxConnections) {
      refuseBusy(socket, limits.maxConnections);
      return;
    }
    connections.add(new ServerConnection(socket, hooks));
  });
  // Steady-state errors (EMFILE on accept...) must not crash the host; they are per connection.
  server.on('error', () => undefined);

  let socketIno: number | null = null;
  if (isPipe) {
    await publishPipeName(endpoint);
  } else {
    // The 0700 directory already keeps others out; 0600 on the socket is the second lock.
    await chmod(endpoint.address, 0o600);
    socketIno = (await lstat(endpoint.address)).ino;
  }

  let closed: Promise<void> | null = null;
  return {
    address: endpoint.address,
    get failedProofs() {
      return failedProofs;
    },
    close() {
      closed ??= (async () => {
        closing = true;
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const connection of [...connections]) connection.destroy();
        await stopped;
        if (socketIno !== null) {
          // Unlink only our own socket: a successor may already have replaced it.
          const stat = await lstat(endpoint.address).catch(() => null);
          if (stat?.ino === socketIno) await unlink(endpoint.address).catch(() => undefined);
        }
      })();
      return closed;
    },
  };
}
