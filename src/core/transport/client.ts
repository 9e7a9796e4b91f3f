import net from 'node:net';
// Not wire.ts: its zod schemas are the server's; the client's frames are checked without zod (server-frames.ts).
import { MAX_FRAME_BYTES, PROTOCOL_VERSION, encodeFrame, pickVersion, upgradeRequiredMessage } from '../../shared/wire-json.js';
import { parseServerFrame } from '../../shared/server-frames.js';
import type { ServerFrame } from '../../shared/wire.js';
import { clientProof, newNonce, newRequestId, proofMatches, serverProof } from './auth.js';
import { TransportError, errnoOf } from './errors.js';
import { LineSplitter, decodeLine } from './line-splitter.js';
import type { Answer, EndpointClient, EndpointInfo } from './types.js';

/**
 * The calling end (the `baton` CLI, or a second app instance forwarding to the first).
 *
 * Order on the wire: wait for hello → check its versions → send auth (and, with
 * authenticateServer, our own nonce) → wait for `authenticated` → only then resolve, so no
 * caller can send a request before the server has accepted our proof. With authenticateServer
 * the ack must also carry the server's proof over our nonce; a process squatting the address
 * without the token cannot produce it, and receives nothing but our auth frame.
 *
 * Without authenticateServer a squatter could simply ack. On Unix that squatter can hardly exist
 * (the socket lives in a 0700 directory only we can write), on Windows any user can race to
 * create a pipe name. Server authentication costs one HMAC and no extra round trip, so it is on
 * everywhere by default: a server without the token never receives a manifest byte.
 */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface ConnectEndpointOptions {
  endpoint: EndpointInfo;
  token: Buffer;
  /** Connect + handshake budget. */
  timeoutMs?: number;
  /** Require the server to prove it holds the token too. Default: on (see the note above). */
  authenticateServer?: boolean;
}

type Pending = { resolve: (answer: Answer) => void; reject: (error: TransportError) => void; timer: NodeJS.Timeout };

function stripEnvelope(frame: Record<string, unknown>): Answer {
  const { type: _type, id: _id, ...answer } = frame;
  return answer as Answer;
}

export function connectEndpoint(options: ConnectEndpointOptions): Promise<EndpointClient> {
  const { endpoint, token } = options;
  const address = endpoint.address;
  const timeoutMs = options.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const authenticateServer = options.authenticateServer ?? true;

  return new Promise((resolve, reject) => {
    const socket = net.connect(address);
    const splitter = new LineSplitter(MAX_FRAME_BYTES);
    const pending = new Map<string, Pending>();
    let state: 'hello' | 'ack' | 'open' | 'closed' = 'hello';
    let serverNonce = '';
    let ourNonce: string | undefined;
    let lastConnectionError = '';

    const timer = setTimeout(() => fail(new TransportError('TIMEOUT', `no answer from ${address} within ${timeoutMs} ms during the handshake`, address)), timeoutMs);

    function fail(error: TransportError): void {
      if (state === 'open' || state === 'closed') return;
      state = 'closed';
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    }

    /** Errors are built only when someone waits: a routine close should not pay for a stack trace. */
    function rejectAll(makeError: () => TransportError): void {
      if (pending.size === 0) return;
      const error = makeError();
      for (const [id, entry] of pending) {
        clearTimeout(entry.timer);
        pending.delete(id);
        entry.reject(error);
      }
    }

    function onHandshakeFrame(frame: ServerFrame): void {
      if (state === 'hello') {
        if (frame.type === 'answer' && frame.ok === false && frame.code === 'BUSY') {
          return fail(new TransportError('BUSY', `${address} is busy: ${String(frame.message)}`, address));
        }
        if (frame.type !== 'hello') return fail(new TransportError('BAD_FRAME', `${address} did not start with a hello frame`, address));
        if (pickVersion(frame.versions) === null) {
          return fail(new TransportError('UPGRADE_REQUIRED', upgradeRequiredMessage(frame.versions.join(', ')), address));
        }
        serverNonce = frame.nonce;
        const auth: Record<string, unknown> = { type: 'auth', version: PROTOCOL_VERSION, proof: clientProof(token, serverNonce) };
        if (authenticateServer) {
          ourNonce = newNonce();
          auth.clientNonce = ourNonce;
        }
        state = 'ack';
        socket.write(encodeFrame(auth));
        return;
      }
      if (frame.type === 'answer' && frame.ok === false) {
        const code = frame.code === 'UPGRADE_REQUIRED' ? 'UPGRADE_REQUIRED' : 'UNAUTHENTICATED';
        return fail(new TransportError(code, `${address} refused the handshake: ${String(frame.message)}`, address));
      }
      if (frame.type !== 'authenticated') return fail(new TransportError('BAD_FRAME', `${address} answered the proof with a ${frame.type} frame`, address));
      if (ourNonce !== undefined) {
        const received = typeof frame.serverProof === 'string' ? frame.serverProof : '';
        if (!proofMatches(received, serverProof(token, ourNonce, serverNonce))) {
          return fail(new TransportError('UNAUTHENTICATED', `${address} could not prove it holds the Baton token: it is not the Baton app; nothing was sent`, address));
        }
      }
      state = 'open';
      clearTimeout(timer);
      resolve(client);
    }

    function onOpenFrame(frame: ServerFrame): void {
      if (frame.type !== 'answer') return; // a stray hello/ack after authentication carries nothing for us
      if (frame.id === null) {
        lastConnectionError = frame.ok ? '' : `${String(frame.code)}: ${String(frame.message)}`;
        return;
      }
      const entry = pending.get(frame.id);
      if (!entry) return;
      pending.delete(frame.id);
      clearTimeout(entry.timer);
      entry.resolve(stripEnvelope(frame));
    }

    function onLine(line: Buffer): boolean {
      const text = decodeLine(line);
      const parsed = text === null ? null : parseServerFrame(text);
      if (parsed === null || !parsed.ok) {
        const why = parsed === null ? 'invalid UTF-8' : parsed.error.message;
        if (state === 'open') {
          lastConnectionError = `BAD_FRAME: ${why}`;
          socket.destroy();
        } else fail(new TransportError('BAD_FRAME', `${address} sent a malformed frame: ${why}`, address));
        return false;
      }
      if (state === 'open') onOpenFrame(parsed.value);
      else onHandshakeFrame(parsed.value);
      return state !== 'closed';
    }

    socket.on('data', (chunk: Buffer) => {
      if (splitter.push(chunk, onLine) === 'overflow') {
        lastConnectionError = `FRAME_TOO_LARGE: ${address} sent a frame over ${MAX_FRAME_BYTES} bytes`;
        if (state === 'open') socket.destroy();
        else fail(new TransportError('BAD_FRAME', lastConnectionError, address));
      }
    });
    socket.on('error', (error) => {
      const code = errnoOf(error);
      if (state === 'hello' && (code === 'ENOENT' || code === 'ECONNREFUSED')) {
        fail(new TransportError('NO_TARGET', `nothing is listening at ${address}; start Baton (or open a baton:// link) and retry`, address, { cause: error }));
      } else if (state === 'hello' && code === 'EACCES') {
        fail(new TransportError('UNSAFE_ENDPOINT', `permission denied at ${address}: it belongs to another user`, address, { cause: error }));
      } else {
        lastConnectionError ||= `${code ?? 'error'}: ${error.message}`;
      }
    });
    socket.on('close', () => {
      clearTimeout(timer);
      if (state === 'ack') {
        fail(new TransportError('UNAUTHENTICATED', `${address} closed the connection after our proof: the token at ${endpoint.tokenPath} does not match the running Baton's`, address));
      } else if (state === 'hello') {
        fail(new TransportError('CLOSED', `${address} closed the connection before saying hello${lastConnectionError ? ` (${lastConnectionError})` : ''}`, address));
      }
      state = 'closed';
      rejectAll(() => new TransportError('CLOSED', `the connection to ${address} closed before the answer${lastConnectionError ? ` (${lastConnectionError})` : ''}`, address));
    });

    const client: EndpointClient = {
      request(method, params, requestOptions) {
        if (state !== 'open') {
          return Promise.reject(new TransportError('CLOSED', `the connection to ${address} is closed; connect again`, address));
        }
        const id = newRequestId();
        const line = encodeFrame({ type: 'request', id, method, params });
        if (Buffer.byteLength(line) > MAX_FRAME_BYTES) {
          return Promise.reject(new TransportError('FRAME_TOO_LARGE', `the ${method} request is over ${MAX_FRAME_BYTES} bytes; send references, not contents`, address));
        }
        const ms = requestOptions?.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
        return new Promise<Answer>((resolveAnswer, rejectAnswer) => {
          const entryTimer = setTimeout(() => {
            pending.delete(id);
            rejectAnswer(new TransportError('TIMEOUT', `${address} did not answer ${method} within ${ms} ms`, address));
          }, ms);
          pending.set(id, { resolve: resolveAnswer, reject: rejectAnswer, timer: entryTimer });
          socket.write(line);
        });
      },
      close() {
        state = 'closed';
        socket.destroy();
        rejectAll(() => new TransportError('CLOSED', `the connection to ${address} was closed by this side`, address));
      },
    };
  });
}
