import { randomBytes } from 'node:crypto';
import { TOKEN_BYTES } from './endpoint.js';

/**
 * One-time, session-scoped credentials for the endpoint (issue 22). `baton ssh` asks the desktop
 * for one, hands it to the remote box, and holds it for the life of its ssh child: the remote CLI
 * authenticates with it, never with the desktop's long-lived token, and it stops working the
 * moment it is revoked. Nothing is written to disk: a restarted desktop knows none of them.
 */
export const MAX_SESSION_CREDENTIALS = 64;

/** What a connection authenticated with a session credential knows of it (handlers read this). */
export interface CredentialInfo {
  id: string;
  kind: 'ssh';
  /** The ssh destination `baton ssh` was given, as the laptop's user typed it. */
  host: string;
}

export interface IssuedCredential extends CredentialInfo {
  token: Buffer;
}

export interface CredentialRegistry {
  issue(kind: CredentialInfo['kind'], host: string): IssuedCredential;
  revoke(id: string): boolean;
  isLive(id: string): boolean;
  /** The live credentials, for the handshake to try after the long-lived token. */
  live(): Iterable<IssuedCredential>;
  readonly size: number;
}

export class TooManyCredentialsError extends Error {
  readonly code = 'TOO_MANY_CREDENTIALS';
}

export function createCredentialRegistry(max: number = MAX_SESSION_CREDENTIALS): CredentialRegistry {
  const byId = new Map<string, IssuedCredential>();
  return {
    issue(kind, host) {
      if (byId.size >= max) throw new TooManyCredentialsError(`${max} remote sessions already hold a credential; end one (exit its baton ssh) and retry`);
      const credential: IssuedCredential = { id: randomBytes(9).toString('base64url'), kind, host, token: randomBytes(TOKEN_BYTES) };
      byId.set(credential.id, credential);
      return credential;
    },
    revoke(id) {
      const credential = byId.get(id);
      if (!credential) return false;
      credential.token.fill(0); // a copy held elsewhere by mistake stops matching too
      byId.delete(id);
      return true;
    },
    isLive: (id) => byId.has(id),
    live: () => byId.values(),
    get size() {
      return byId.size;
    },
  };
}
