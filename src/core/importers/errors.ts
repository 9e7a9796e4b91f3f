import { errnoOf } from '../fs/errno.js';
import { ErrorCode } from '../../shared/error-codes.js';

export type ImporterErrorCode =
  | typeof ErrorCode.NOT_FOUND
  | typeof ErrorCode.ACCESS_DENIED
  | typeof ErrorCode.IO_ERROR
  | typeof ErrorCode.BAD_REQUEST;

/** A failure to import another tool's session: stable code, an actionable sentence, the path or id. */
export class ImporterError extends Error {
  override readonly name = 'ImporterError';
  constructor(
    readonly code: ImporterErrorCode,
    message: string,
    readonly path?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isImporterError(error: unknown, code?: ImporterErrorCode): error is ImporterError {
  return error instanceof ImporterError && (code === undefined || error.code === code);
}

export { errnoOf } from '../fs/errno.js';

/** Maps a file-system error met while reading a source log to an ImporterError naming the path. */
export function fromReadError(error: unknown, path: string): ImporterError {
  if (error instanceof ImporterError) return error;
  const code = errnoOf(error);
  if (code === 'ENOENT' || code === 'ENOTDIR') return new ImporterError(ErrorCode.NOT_FOUND, `Session file not found: ${path}.`, path, { cause: error });
  if (code === 'EACCES' || code === 'EPERM')
    return new ImporterError(ErrorCode.ACCESS_DENIED, `Permission denied reading ${path}. Check that this user can read the file.`, path, { cause: error });
  if (!code) {
    // Not a system error: the log's content or Baton itself failed, not the disk.
    const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return new ImporterError(ErrorCode.BAD_REQUEST, `Could not import ${path}: ${what}.`, path, { cause: error });
  }
  return new ImporterError(ErrorCode.IO_ERROR, `Could not read ${path} (${code}).`, path, { cause: error });
}
