/** Every stable error code Baton answers with, in one place so the CLI, hosts and UI agree. */
export const ErrorCode = {
  BAD_FRAME: 'BAD_FRAME',
  FRAME_TOO_LARGE: 'FRAME_TOO_LARGE',
  BAD_REQUEST: 'BAD_REQUEST',
  UNKNOWN_METHOD: 'UNKNOWN_METHOD',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  UPGRADE_REQUIRED: 'UPGRADE_REQUIRED',
  INVALID_MANIFEST: 'INVALID_MANIFEST',
  VERIFY_MISMATCH: 'VERIFY_MISMATCH',
  CONFLICT: 'CONFLICT',
  STALE_HOLDER: 'STALE_HOLDER',
  NOT_FOUND: 'NOT_FOUND',
  NO_SPACE: 'NO_SPACE',
  ACCESS_DENIED: 'ACCESS_DENIED',
  IO_ERROR: 'IO_ERROR',
  READ_ONLY: 'READ_ONLY',
  UNSAFE_STORE: 'UNSAFE_STORE',
  /** The store is encrypted at rest and its data key cannot be read (no secret store, locked, missing) or is the wrong one. */
  KEY_UNAVAILABLE: 'KEY_UNAVAILABLE',
  /** A passphrase store whose host has not been unlocked yet (or was locked): unlock it in the app. */
  LOCKED: 'LOCKED',
  /** Too many wrong passphrases: the next attempt is heard after a delay. */
  UNLOCK_THROTTLED: 'UNLOCK_THROTTLED',
  INTERNAL: 'INTERNAL',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
