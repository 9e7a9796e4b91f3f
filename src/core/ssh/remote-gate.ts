import { ErrorCode } from '../../shared/error-codes.js';
import { sshOriginOf } from '../../shared/ssh-origin.js';
import type { SessionStore } from '../store/types.js';
import { TooManyCredentialsError, type CredentialRegistry } from '../transport/session-credentials.js';
import type { Answer, ConnectionContext, IncomingRequest, RequestHandler } from '../transport/types.js';
import { createUploadReceiver } from './session-upload.js';

/**
 * What a remote box may ask of the desktop through a `baton ssh` credential (issue 22), and the
 * two methods a local `baton ssh` uses to get and hold that credential.
 *
 * Local connections (the long-lived token) reach everything as before, plus:
 *   ssh.credential.open {host}  → {credentialId, token (base64)}: a fresh one-time credential
 *   ssh.credential.hold {credentialId}  → answered only when revoked: the credential lives as
 *     long as this request is open, so the ssh session ending (or baton ssh dying) revokes it.
 * Remote connections (a session credential) reach only REMOTE_METHODS; a handoff offer from
 * them is accepted only for a session that came from the same ssh host.
 */
export const REMOTE_METHODS: ReadonlySet<string> = new Set(['ping', 'session.upload', 'handoff.offer', 'approval.request', 'task.register', 'task.heartbeat', 'task.complete', 'task.result', 'task.get']);
const HOST_PATTERN = /^[A-Za-z0-9_.@:[\]%-]{1,255}$/;

export interface RemoteGateOptions {
  store: SessionStore;
  credentials: CredentialRegistry;
  receive: RequestHandler;
  onLanded?: (sessionId: string) => void;
  /** Whether this desktop already has a task with this id (a remote box may not touch it). */
  taskExists?: (id: string) => Promise<boolean>;
}

export function createRemoteGate(options: RemoteGateOptions): RequestHandler {
  const { store, credentials, receive } = options;
  const upload = createUploadReceiver(store, options.onLanded);
  /** Task id → the ssh host that registered it: only that host may renew or complete it. */
  const remoteTasks = new Map<string, string>();

  async function open(request: IncomingRequest): Promise<Answer> {
    const host = (request.params as { host?: unknown } | null)?.host;
    if (typeof host !== 'string' || !HOST_PATTERN.test(host)) return { ok: false, code: ErrorCode.BAD_REQUEST, message: 'ssh.credential.open needs {host}: the ssh destination, as typed' };
    try {
      const issued = credentials.issue('ssh', host);
      return { ok: true, credentialId: issued.id, token: issued.token.toString('base64') };
    } catch (error) {
      if (error instanceof TooManyCredentialsError) return { ok: false, code: ErrorCode.CONFLICT, message: error.message };
      throw error;
    }
  }

  function hold(request: IncomingRequest, connection: ConnectionContext): Promise<Answer> {
    const id = (request.params as { credentialId?: unknown } | null)?.credentialId;
    if (typeof id !== 'string' || !credentials.isLive(id)) return Promise.resolve({ ok: false, code: ErrorCode.NOT_FOUND, message: 'ssh.credential.hold: no live credential with that id' });
    return new Promise((resolve) => {
      const revoke = () => {
        credentials.revoke(id);
        resolve({ ok: true, revoked: true });
      };
      if (connection.signal.aborted) revoke();
      else connection.signal.addEventListener('abort', revoke, { once: true });
    });
  }

  async function offerFromRemote(request: IncomingRequest, connection: ConnectionContext, host: string): Promise<Answer> {
    const sessionId = (request.params as { manifest?: { session_id?: unknown } } | null)?.manifest?.session_id;
    const doc = typeof sessionId === 'string' ? await store.getSession(sessionId).catch(() => null) : null;
    if (!doc) return { ok: false, code: ErrorCode.NOT_FOUND, message: `session ${String(sessionId)} has not been sent to this desktop yet: send it with session.upload first` };
    if (sshOriginOf(doc)?.host !== host) return { ok: false, code: ErrorCode.ACCESS_DENIED, message: `session ${String(sessionId)} did not come from ${host}; a remote box may hand off only its own sessions` };
    return receive(request, connection);
  }

  /**
   * Tasks from a remote box: a pid there means nothing here (the laptop would check, or signal,
   * one of its own processes), so it is dropped; the task is that host's alone.
   */
  async function taskFromRemote(request: IncomingRequest, connection: ConnectionContext, host: string): Promise<Answer> {
    const params = request.params as Record<string, unknown> | null;
    const id = params && typeof params === 'object' ? params.id : undefined;
    if (typeof id !== 'string') return receive(request, connection); // the task service answers BAD_REQUEST
    const owner = remoteTasks.get(id);
    const denied = { ok: false as const, code: ErrorCode.ACCESS_DENIED, message: `task ${id} was not registered from ${host}` };
    if (request.method !== 'task.register') return owner === host ? receive(request, connection) : denied;
    if (owner !== undefined && owner !== host) return denied;
    if (owner === undefined && (await options.taskExists?.(id))) return { ...denied, message: `task ${id} belongs to this desktop; choose another id on ${host}` };
    const { pid: _remotePid, ...rest } = params!;
    const answer = await receive({ ...request, params: rest }, connection);
    if (answer.ok) remoteTasks.set(id, host);
    return answer;
  }

  return async (request, connection) => {
    const credential = connection.credential;
    if (!credential) {
      if (request.method === 'ssh.credential.open') return open(request);
      if (request.method === 'ssh.credential.hold') return hold(request, connection);
      if (request.method === 'session.upload') return { ok: false, code: ErrorCode.ACCESS_DENIED, message: 'session.upload is for remote boxes; a local session is already in this store' };
      if (request.method === 'approval.request' && request.params && typeof request.params === 'object' && 'remote' in request.params) {
        // Only a remote box's connection may say its paths were resolved elsewhere.
        const { remote: _claimed, ...params } = request.params as Record<string, unknown>;
        return receive({ ...request, params }, connection);
      }
      return receive(request, connection);
    }
    if (!REMOTE_METHODS.has(request.method)) return { ok: false, code: ErrorCode.ACCESS_DENIED, message: `${request.method} is not open to a remote box (${credential.host})` };
    if (request.method === 'session.upload') return upload(request, connection, credential);
    if (request.method === 'handoff.offer') return offerFromRemote(request, connection, credential.host);
    if (request.method.startsWith('task.')) return taskFromRemote(request, connection, credential.host);
    if (request.method === 'approval.request') {
      const params = request.params as { remote?: unknown } | null;
      if (!params || typeof params !== 'object' || !params.remote || typeof params.remote !== 'object') {
        return { ok: false, code: ErrorCode.BAD_REQUEST, message: `an approval from ${credential.host} must carry its paths as resolved there (remote); update Baton on that box` };
      }
      // The host is the credential's, whatever the remote wrote.
      return receive({ ...request, params: { ...params, remote: { ...(params.remote as object), host: credential.host } } }, connection);
    }
    return receive(request, connection);
  };
}
