/**
 * A typed outcome for parsers that must not throw: the local socket's frame parsers (wire.ts).
 * The store, the receiver's helpers and the UI handlers throw errors carrying a `code` instead; the
 * receiver and the UI dispatcher turn those into answers at their boundary.
 */
export type Ok<T> = { ok: true; value: T };
export type Err<E = AppError> = { ok: false; error: E };
export type Result<T, E = AppError> = Ok<T> | Err<E>;

export interface AppError {
  /** Stable, machine-readable code (see error-codes.ts). */
  code: string;
  /** A sentence a person can act on, naming the path or id involved. */
  message: string;
}

export const ok = <T>(value: T): Ok<T> => ({ ok: true, value });
export const err = (code: string, message: string): Err => ({ ok: false, error: { code, message } });
