import type { AtRestStatus } from './at-rest-state.js';

/** One sentence about encryption at rest, the same in doctor, `baton encrypt --status` and the UI footer. */
export interface EncryptionView {
  state: 'on' | 'off';
  detail: string;
}

export function encryptionView(status: AtRestStatus): EncryptionView {
  if (status.state === 'on') return { state: 'on', detail: `Encrypted at rest (AES-256-GCM), key ${status.keyId} in the ${status.keyStore}${status.rotating ? '; a key rotation is not finished (baton key rotate resumes it)' : ''}` };
  return { state: 'off', detail: `Not encrypted at rest: ${status.reason}` };
}
