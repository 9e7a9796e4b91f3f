import type { ApiError } from '../../api';

/** What a person reads after a decision failed: a late click is news, not a crash. */
export function decideFailureMessage(error: ApiError): string {
  switch (error.code) {
    case 'ALREADY_DECIDED':
      return `Too late: this request was already decided (${error.message}). Nothing was changed.`;
    case 'NOT_FOUND':
      return 'This request is no longer known to Baton (the agent may have gone away). Nothing was changed.';
    case 'GRANT_REFUSED':
      return `Not allowed for the session: ${error.message} Nothing was changed.`;
    case 'CONFIRMATION_REQUIRED':
      return 'This high-risk request needs the second confirmation. Nothing was changed.';
    default:
      return `Could not send the decision: ${error.message} (${error.code}).`;
  }
}
