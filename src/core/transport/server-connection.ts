import type { Socket } from 'node:net';
import {
  PROTOCOL_VERSION,
  SUPPORTED_VERSIONS,
  encodeFrame,
  isNewerMajor,
  majorOf,
  parseClientFrame,
  parseJsonStrict,
  salvageRequestId,
  upgradeRequiredMessage,
  type AuthFrame,
  type RequestFrame,
} from '../../shared/wire.js';
import { expectedClientProof, hostProofMatches, hostServerProof, newHostNonce } from './host-auth.js';
import { LineSplitter, decodeLine } from './line-splitter.js';
import type { CredentialInfo, CredentialRegistry } from './session-credentials.js';
import type { Answer, ConnectionContext, Limits, RequestHandler } from './types.js';

/**
 * One accepted connection, as a small state machine:
 *
 *   hello sent ──valid proof──▶ authenticated ──▶ closed
 *        └──── anything else (wrong proof, bad frame, timeout) ──▶ closed, nothing sent
 *
 * Before the proof verifies, the server writes only the hello, the `authenticated` ack, or an
 * UPGRADE_REQUIRED answer (which says nothing the hello did not). A failed proof learns nothing:
 * the socket just closes. The nonce is consumed by the first auth frame, whatever its outcome.
 */
export interface ConnectionHooks {
  token: Buffer;
  /** Session credentials (issue 22), tried after the long-lived token. */
  credentials?: CredentialRegistry;
  handle: RequestHandler;
  limits: Limits;
  onFailedProof(): void;
  onClosed(connection: ServerConnection): void;
}

/** How long a refused peer gets to read the last answer before the socket is destroyed. */
export const CLOSE_GRACE_MS = 1_000;

/** The abort reason handlers see when the peer disconnects (one instance: a close is routine). */
export const PEER_GONE = Object.freeze(new Error('the peer disconnected'));

type TimerKind = 'handshake' | 'frame' | 'idle';

export class ServerConnection {
  private nonce: string | null = newHostNonce();
  private authenticated = false;
  private inflight = 0;
  private closed = false;
  /** A last answer is being flushed: read nothing more. */
  private closing = false;
  private paused = false;
  private timer: NodeJS.Timeout | null = null;
  private timerKind: TimerKind | null = null;
  private readonly splitter: LineSplitter;
  /** Made only when a handler reads `signal`: most requests never do, and a controller is not free. */
  private abort: AbortController | null = null;
  private readonly context: ConnectionContext;
  /** Set when the proof matched a session credential rather than the long-lived token. */
  private credential: CredentialInfo | undefined;

  constructor(
    private readonly socket: Socket,
    private readonly hooks: ConnectionHooks,
  ) {
    this.splitter = new LineSplitter(hooks.limits.maxHandshakeFrameBytes);
    const connection = this;
    this.context = {
      get signal(): AbortSignal {
        if (!connection.abort) {
          connection.abort = new AbortController();
          if (connection.closed) connection.abort.abort(PEER_GONE);
        }
        return connection.abort.signal;
      },
      get credential(): CredentialInfo | undefined {
        return connection.credential;
      },
    };
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => this.destroy()); // EPIPE/ECONNRESET: the peer is gone, nothing to report
    socket.on('close', () => this.finish());
    this.setTimer('handshake', hooks.limits.handshakeTimeoutMs);
    this.write({ type: 'hello', versions: [...SUPPORTED_VERSIONS], nonce: this.nonce });
  }

  destroy(): void {
    if (!this.socket.destroyed) this.socket.destroy();
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.clearTimer();
    this.abort?.abort(PEER_GONE);
    this.hooks.onClosed(this);
  }

  private write(frame: Record<string, unknown>): void {
    if (this.closed || this.socket.destroyed) return;
    this.socket.write(encodeFrame(frame));
  }

  /** Sends a last answer, then closes once it is flushed. */
  private refuse(code: string, message: string, id: string | null = null): void {
    this.write({ type: 'answer', id, ok: false, code, message });
    this.closing = true;
    this.socket.end();
    // end() waits for the peer; a peer that never reads must not hold us: destroy after a grace.
    this.setTimer('idle', CLOSE_GRACE_MS);
  }

  private setTimer(kind: TimerKind, ms: number): void {
    this.clearTimer();
    this.timerKind = kind;
    this.timer = setTimeout(() => this.destroy(), ms);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerKind = null;
  }

  /**
   * After authentication: a frame that started arriving must finish within idleTimeoutMs of its
   * first byte (this is what stops one-byte-per-second clients); with nothing arriving and
   * nothing in flight the connection may sit idle for idleTimeoutMs; while a handler runs
   * (an approval can wait for a person) there is no timer.
   */
  private rearm(): void {
    if (!this.authenticated || this.closed) return;
    if (this.splitter.pending > 0) {
      if (this.timerKind !== 'frame') this.setTimer('frame', this.hooks.limits.idleTimeoutMs);
    } else if (this.inflight === 0) {
      this.setTimer('idle', this.hooks.limits.idleTimeoutMs);
    } else {
      this.clearTimer();
    }
  }

  private onData(chunk: Buffer): void {
    if (this.closed || this.closing) return;
    const outcome = this.splitter.push(chunk, (line) => this.onLine(line));
    if (outcome === 'overflow') {
      if (!this.authenticated) {
        this.failAuth();
        return;
      }
      this.refuse('FRAME_TOO_LARGE', `frame exceeds ${this.splitter.maxBytes} bytes; send references, not contents`);
      return;
    }
    if (outcome === 'ok') this.rearm();
  }

  /** Returns false when the connection is closing and reading must stop. */
  private onLine(line: Buffer): boolean {
    if (this.closed || this.closing) return false;
    const text = decodeLine(line);
    if (!this.authenticated) return this.onHandshakeLine(text);
    if (text === null) {
      this.write({ type: 'answer', id: null, ok: false, code: 'BAD_FRAME', message: 'frame is not valid UTF-8' });
      return true;
    }
    const parsed = parseClientFrame(text);
    if (!parsed.ok) {
      const json = parsed.error.code === 'BAD_REQUEST' ? parseJsonStrict(text) : null;
      const salvaged = json?.ok ? salvageRequestId(json.value) : null;
      this.write({ type: 'answer', id: salvaged, ok: false, code: parsed.error.code, message: parsed.error.message });
      return true;
    }
    const frame = parsed.value;
    if (frame.type === 'auth') {
      this.write({ type: 'answer', id: null, ok: false, code: 'BAD_FRAME', message: 'already authenticated: a nonce is used once' });
      return true;
    }
    this.dispatch(frame);
    return !this.closed && !this.closing;
  }

  private failAuth(): false {
    this.nonce = null;
    this.hooks.onFailedProof();
    this.destroy();
    return false;
  }

  private onHandshakeLine(text: string | null): boolean {
    const nonce = this.nonce;
    if (text === null || nonce === null) return this.failAuth();
    const parsed = parseClientFrame(text);
    if (!parsed.ok || parsed.value.type !== 'auth') return this.failAuth();
    const auth: AuthFrame = parsed.value;
    this.nonce = null; // single use, whatever happens next
    if (isNewerMajor(auth.version) || majorOf(auth.version) !== majorOf(PROTOCOL_VERSION)) {
      this.refuse('UPGRADE_REQUIRED', upgradeRequiredMessage(auth.version));
      return false;
    }
    const token = this.matchingToken(auth.proof, nonce);
    if (token === null) return this.failAuth();
    this.authenticated = true;
    this.splitter.maxBytes = this.hooks.limits.maxFrameBytes;
    const ack: Record<string, unknown> = { type: 'authenticated', version: PROTOCOL_VERSION };
    if (auth.clientNonce !== undefined) ack.serverProof = hostServerProof(token, auth.clientNonce, nonce);
    this.write(ack);
    return true;
  }

  /** The token the proof was made with: the long-lived one, else a live session credential's. */
  private matchingToken(proof: string, nonce: string): Buffer | null {
    if (hostProofMatches(proof, expectedClientProof(this.hooks.token, nonce))) return this.hooks.token;
    for (const issued of this.hooks.credentials?.live() ?? []) {
      if (hostProofMatches(proof, expectedClientProof(issued.token, nonce))) {
        this.credential = { id: issued.id, kind: issued.kind, host: issued.host };
        return issued.token;
      }
    }
    return null;
  }

  private dispatch(frame: RequestFrame): void {
    // A credential revoked after the handshake (its ssh session ended) ends its connections too.
    if (this.credential && !this.hooks.credentials?.isLive(this.credential.id)) {
      this.refuse('UNAUTHENTICATED', 'this remote session credential was revoked: its baton ssh session ended', frame.id);
      return;
    }
    if (frame.version !== undefined && isNewerMajor(frame.version)) {
      this.write({ type: 'answer', id: frame.id, ok: false, code: 'UPGRADE_REQUIRED', message: upgradeRequiredMessage(frame.version) });
      return;
    }
    this.inflight += 1;
    if (this.inflight >= this.hooks.limits.maxInflight && !this.paused) {
      this.paused = true;
      this.socket.pause();
    }
    // Fire-and-forget by design: run() never rejects, and the answer finds its way back by id.
    void this.run(frame).then((answer) => {
      this.inflight -= 1;
      if (this.paused && this.inflight < this.hooks.limits.maxInflight) {
        this.paused = false;
        this.socket.resume();
      }
      this.sendAnswer(frame.id, answer);
      this.rearm();
    });
  }

  /** The handler's answer, or INTERNAL when it throws or returns something that is not an answer. */
  private async run(frame: RequestFrame): Promise<Answer> {
    try {
      const answer = await this.hooks.handle({ id: frame.id, method: frame.method, params: frame.params }, this.context);
      if (answer === null || typeof answer !== 'object' || (answer.ok !== true && answer.ok !== false)) {
        return { ok: false, code: 'INTERNAL', message: `the handler for ${frame.method} returned no answer` };
      }
      if (answer.ok === false && (typeof answer.code !== 'string' || typeof answer.message !== 'string')) {
        return { ok: false, code: 'INTERNAL', message: `the handler for ${frame.method} failed without a code and message` };
      }
      return answer;
    } catch (error) {
      return { ok: false, code: 'INTERNAL', message: `the handler for ${frame.method} failed: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  private sendAnswer(id: string, answer: Answer): void {
    // type and id come last so a handler can never forge them.
    let line: string;
    try {
      line = encodeFrame({ ...answer, type: 'answer', id });
    } catch (error) {
      line = encodeFrame({ type: 'answer', id, ok: false, code: 'INTERNAL', message: `answer is not serialisable: ${String(error)}` });
    }
    if (Buffer.byteLength(line) > this.hooks.limits.maxFrameBytes) {
      line = encodeFrame({ type: 'answer', id, ok: false, code: 'INTERNAL', message: `answer exceeds ${this.hooks.limits.maxFrameBytes} bytes` });
    }
    if (!this.closed && !this.closing && !this.socket.destroyed) this.socket.write(line);
  }
}
