import { TransportError, type TransportErrorCode } from '../errors.js';

/** Test assertion helper: a TransportError, with `code` when given. */
export function isTransportError(value: unknown, code?: TransportErrorCode): value is TransportError {
  return value instanceof TransportError && (code === undefined || value.code === code);
}
