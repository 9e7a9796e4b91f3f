import { existsSync } from 'node:fs';
import { z } from 'zod';
import { builtOnFirstUse } from '../../../shared/built-on-first-use.js';
import { ErrorCode } from '../../../shared/error-codes.js';
import { connectEndpoint } from '../../transport/client.js';
import { loadOrCreateToken, resolveEndpoint } from '../../transport/endpoint.js';
import type { RequestHandler } from '../../transport/types.js';
import { StoreError } from '../errors.js';
import { dataKeyOf, type DataKey } from './aead.js';
import { heldPassphraseKey } from './passphrase.js';
import { markPassphraseRefused } from './passphrase-refusal.js';

/**
 * `atRest.key`: in passphrase mode the CLI asks the running host for the data key, over the local
 * endpoint only (0700 directory, token-authenticated both ways; never the socket a `baton ssh`
 * forward opens, never a remote credential).
 *
 *   request {method:'atRest.key', params:{version:1, keyId}}
 *   answer  {ok:true, version:1, keyId, key: base64 of 32 bytes}
 *         | {ok:false, code:'KEY_UNAVAILABLE'|'ACCESS_DENIED'|'BAD_REQUEST'|'UPGRADE_REQUIRED', message}
 */
export const KEY_METHOD = 'atRest.key';
export const KEY_REQUEST_VERSION = 1;
/** A host that does not answer this fast is treated as absent (the CLI then refuses, exit 6). */
export const KEY_REQUEST_TIMEOUT_MS = 3_000;

const KeyRequest = builtOnFirstUse(() => z.strictObject({ version: z.number().int().min(1).max(9999), keyId: z.string().regex(/^[0-9a-f]{16}$/) }));
const KeyAnswer = builtOnFirstUse(() => z.looseObject({ ok: z.literal(true), version: z.literal(KEY_REQUEST_VERSION), keyId: z.string(), key: z.string().regex(/^[A-Za-z0-9+/]{43}=$/) }));

/** The host's handler: the key it holds for `root` (unlocked at its start), to a local connection only. */
export function keyRequestMethod(root: string): RequestHandler {
  return async ({ params }, connection) => {
    if (connection.credential) return { ok: false, code: ErrorCode.ACCESS_DENIED, message: `${KEY_METHOD} is for this machine's own Baton CLI, never for a remote box` };
    const parsed = KeyRequest.safeParse(params);
    if (!parsed.success) return { ok: false, code: ErrorCode.BAD_REQUEST, message: `${KEY_METHOD} needs {version, keyId}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}` };
    if (parsed.data.version > KEY_REQUEST_VERSION) return { ok: false, code: ErrorCode.UPGRADE_REQUIRED, message: `${KEY_METHOD} version ${parsed.data.version} asked; this host speaks ${KEY_REQUEST_VERSION}: upgrade Baton` };
    const key = heldPassphraseKey(root);
    if (!key) return { ok: false, code: ErrorCode.KEY_UNAVAILABLE, message: 'this host holds no passphrase key: its store is not in passphrase mode, or it is locked' };
    if (key.keyId !== parsed.data.keyId) return { ok: false, code: ErrorCode.KEY_UNAVAILABLE, message: `this host holds key ${key.keyId}, not ${parsed.data.keyId}` };
    return { ok: true, version: KEY_REQUEST_VERSION, keyId: key.keyId, key: key.key.toString('base64') };
  };
}

const START_HINT = 'Start it with `baton serve` (it asks for the passphrase), then retry.';
const UNLOCK_HINT = 'Unlock it: enter the passphrase on the unlock screen of the Baton app (or of the page `baton serve` printed), then retry.';

function refuse(root: string, why: string, hint = START_HINT): StoreError {
  markPassphraseRefused();
  return new StoreError(
    'KEY_UNAVAILABLE',
    `This store (${root}) is encrypted with a passphrase, and its key is held only by a running, unlocked Baton host: ${why}. ${hint} Nothing was written.`,
    root,
  );
}

/** The CLI's side: the key from the host on this machine's own endpoint; refused (before anything is written) when none answers. */
export async function requestPassphraseKey(root: string, keyId: string): Promise<DataKey> {
  const endpoint = resolveEndpoint(root);
  // No socket or no token: no host. Checked first so a refusal never creates a file (the token).
  if (process.platform !== 'win32' && !existsSync(endpoint.address)) throw refuse(root, 'no Baton host is running');
  if (!existsSync(endpoint.tokenPath)) throw refuse(root, 'no Baton host has run here yet (no endpoint token)');
  let client;
  try {
    client = await connectEndpoint({ endpoint, token: await loadOrCreateToken(endpoint.tokenPath), timeoutMs: KEY_REQUEST_TIMEOUT_MS });
  } catch (error) {
    throw refuse(root, `no Baton host answers (${(error as Error).message})`);
  }
  try {
    const answer = await client.request(KEY_METHOD, { version: KEY_REQUEST_VERSION, keyId }, { timeoutMs: KEY_REQUEST_TIMEOUT_MS });
    if (!answer.ok && answer.code === ErrorCode.LOCKED) throw refuse(root, 'the running host is locked', UNLOCK_HINT);
    if (!answer.ok) throw refuse(root, `the host refused (${answer.code}: ${answer.message})`);
    const parsed = KeyAnswer.safeParse(answer);
    if (!parsed.success) throw refuse(root, 'the host answered with a malformed key');
    const key = dataKeyOf(Buffer.from(parsed.data.key, 'base64'));
    if (key.keyId !== keyId) throw refuse(root, `the host sent key ${key.keyId}, this store needs ${keyId}`);
    return key;
  } catch (error) {
    if (error instanceof StoreError) throw error;
    throw refuse(root, `the host did not answer (${(error as Error).message})`);
  } finally {
    client.close();
  }
}
