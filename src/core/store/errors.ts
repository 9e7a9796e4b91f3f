import { ErrorCode } from '../../shared/error-codes.js';

export type StoreErrorCode =
  | typeof ErrorCode.STALE_HOLDER
  | typeof ErrorCode.CONFLICT
  | typeof ErrorCode.NOT_FOUND
  | typeof ErrorCode.NO_SPACE
  | typeof ErrorCode.ACCESS_DENIED
  | typeof ErrorCode.IO_ERROR
  | typeof ErrorCode.READ_ONLY
  | typeof ErrorCode.UNSAFE_STORE
  | typeof ErrorCode.BAD_REQUEST;

/** Every failure the store reports: a stable code, a sentence a person can act on, and the path or id. */
export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    readonly path?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isStoreError(error: unknown, code?: StoreErrorCode): error is StoreError {
  return error instanceof StoreError && (code === undefined || error.code === code);
}

/**
 * Maps an errno from the file system to a typed StoreError naming the path. `action` reads as
 * "while <action>", e.g. "appending to the message log".
 */
export function fromFsError(error: unknown, path: string, action: string): StoreError {
  if (error instanceof StoreError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return new StoreError(ErrorCode.NO_SPACE, `No space left on the device while ${action} (${path}). Free some space and retry; nothing was reported saved that is not on disk.`, path, { cause: error });
    case 'EACCES':
    case 'EPERM':
      return new StoreError(ErrorCode.ACCESS_DENIED, `Permission denied while ${action} (${path}). Check that this user owns the Baton data directory.`, path, { cause: error });
    case 'EROFS':
      return new StoreError(ErrorCode.READ_ONLY, `The file system is read-only while ${action} (${path}).`, path, { cause: error });
    case 'ENOENT':
      return new StoreError(ErrorCode.NOT_FOUND, `Not found while ${action}: ${path}.`, path, { cause: error });
    default:
      return new StoreError(ErrorCode.IO_ERROR, `I/O error${code ? ` (${code})` : ''} while ${action} (${path}). The disk may be failing; the last saved state is kept.`, path, { cause: error });
  }
}

export { errnoOf } from '../fs/errno.js';
