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
  | typeof ErrorCode.KEY_UNAVAILABLE
  | typeof ErrorCode.BAD_REQUEST
  | typeof ErrorCode.INTERNAL;

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
  // Only a system error (an errno: ENOSPC, EIO …) says anything about the disk. Anything else
  // came from the data or from Baton itself, and is reported as that, by its cause.
  if (typeof code !== 'string' || !/^E[A-Z0-9]+$/.test(code)) return fromNonSystemError(error, path, action);
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return new StoreError(ErrorCode.NO_SPACE, `No space left on the device while ${action} (${path}). Free some space and retry; nothing was reported saved that is not on disk.`, path, { cause: error });
    case 'EACCES':
    case 'EPERM':
      return new StoreError(ErrorCode.ACCESS_DENIED, `Permission denied while ${action} (${path}). Check that this user owns the Baton data directory.`, path, { cause: error });
    case 'EROFS':
      return new StoreError(ErrorCode.READ_ONLY, `The file system is read-only while ${action} (${path}).`, path, { cause: error });
    case 'EBADMSG':
      // Encrypted at rest and failing authentication (at-rest-cipher.ts): damaged or moved content, not a failing disk.
      return new StoreError(ErrorCode.IO_ERROR, `${(error as Error).message} (while ${action})`, path, { cause: error });
    case 'ENOENT':
      return new StoreError(ErrorCode.NOT_FOUND, `Not found while ${action}: ${path}.`, path, { cause: error });
    default:
      return new StoreError(ErrorCode.IO_ERROR, `I/O error${code ? ` (${code})` : ''} while ${action} (${path}). The disk may be failing; the last saved state is kept.`, path, { cause: error });
  }
}

function fromNonSystemError(error: unknown, path: string, action: string): StoreError {
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return new StoreError(ErrorCode.BAD_REQUEST, `The data is nested too deeply to save while ${action} (${path}); nothing was written. Flatten it and retry.`, path, { cause: error });
  }
  if (error instanceof TypeError && /circular|BigInt/i.test(error.message)) {
    return new StoreError(ErrorCode.BAD_REQUEST, `The data cannot be written as JSON while ${action} (${path}): ${error.message}. Nothing was written.`, path, { cause: error });
  }
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new StoreError(ErrorCode.INTERNAL, `Baton failed while ${action} (${path}): ${what}. This is a bug in Baton, not a disk problem; the last saved state is kept.`, path, { cause: error });
}

export { errnoOf } from '../fs/errno.js';
