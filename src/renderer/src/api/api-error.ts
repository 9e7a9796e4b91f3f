/**
 * Codes the renderer itself produces. Codes answered by a host (NOT_FOUND, BAD_REQUEST …, see
 * src/shared/error-codes.ts) pass through ApiError unchanged.
 */
export const ClientErrorCode = {
  /** The host answered with something that does not match the UI contract. */
  BAD_RESPONSE: 'BAD_RESPONSE',
  /** The renderer tried to send a payload the contract does not allow (a bug in the renderer). */
  BAD_REQUEST: 'BAD_REQUEST',
  /** The connection to the host dropped before the answer arrived. */
  DISCONNECTED: 'DISCONNECTED',
  /** No answer within the request timeout. */
  TIMEOUT: 'TIMEOUT',
  /** The page was opened without the access token `baton serve` prints. */
  NO_TOKEN: 'NO_TOKEN',
  /** Too many requests are waiting for an answer. */
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  /** The Electron bridge threw instead of answering. */
  BRIDGE_FAILED: 'BRIDGE_FAILED',
} as const;
export type ClientErrorCode = (typeof ClientErrorCode)[keyof typeof ClientErrorCode];

/** The one error type api.invoke throws: a stable code, a sentence a person can act on, and the channel. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: string;
  readonly channel: string | undefined;

  constructor(code: string, message: string, channel?: string) {
    super(message);
    this.code = code;
    this.channel = channel;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** Any thrown value as an ApiError, so the UI has one shape to show. */
export function toApiError(value: unknown, channel?: string): ApiError {
  if (value instanceof ApiError) return value;
  const message = value instanceof Error ? value.message : String(value);
  return new ApiError('INTERNAL', message, channel);
}
