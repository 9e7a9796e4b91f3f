/**
 * Typed transport failures. `code` is stable (the CLI maps it to exit codes and --json output);
 * `message` says what to do; `target` names the socket, pipe, directory or file involved.
 */
export const TransportErrorCode = {
  /** Nothing listens at the endpoint (ENOENT, ECONNREFUSED): launch the app and retry. */
  NO_TARGET: 'NO_TARGET',
  /** Our proof was refused, or the server failed to prove it holds the token. */
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  TIMEOUT: 'TIMEOUT',
  UPGRADE_REQUIRED: 'UPGRADE_REQUIRED',
  /** Another live instance owns the endpoint: forward to it with the client. */
  ALREADY_RUNNING: 'ALREADY_RUNNING',
  /** The endpoint directory, socket or token is not private to this user. */
  UNSAFE_ENDPOINT: 'UNSAFE_ENDPOINT',
  /** The token file exists but is not a 0600 file of exactly 32 bytes. */
  BAD_TOKEN: 'BAD_TOKEN',
  /** The peer sent something that is not a frame of this protocol. */
  BAD_FRAME: 'BAD_FRAME',
  /** A frame over the size limit (ours, before sending; or theirs). */
  FRAME_TOO_LARGE: 'FRAME_TOO_LARGE',
  /** The connection closed (or was closed) while an answer was awaited. */
  CLOSED: 'CLOSED',
  IO_ERROR: 'IO_ERROR',
  /** The host already serves its maximum number of connections: retry later. */
  BUSY: 'BUSY',
} as const;
export type TransportErrorCode = (typeof TransportErrorCode)[keyof typeof TransportErrorCode];

export class TransportError extends Error {
  override readonly name = 'TransportError';
  constructor(
    readonly code: TransportErrorCode,
    message: string,
    readonly target: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export { errnoOf } from '../fs/errno.js';
