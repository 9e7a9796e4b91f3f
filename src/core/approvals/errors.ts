import type { ApprovalErrorCode } from '../../shared/approvals.js';

/** A typed approval failure: a stable code, a sentence a person can act on, and the id or path. */
export class ApprovalError extends Error {
  override readonly name = 'ApprovalError';
  constructor(
    readonly code: ApprovalErrorCode,
    message: string,
    /** The request id, grant id or file involved. */
    readonly target: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isApprovalError(value: unknown, code?: ApprovalErrorCode): value is ApprovalError {
  return value instanceof ApprovalError && (code === undefined || value.code === code);
}
