import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { DurableFs } from '../../fs/durable-fs.js';
import { createFileAtomic, writeFileAtomic } from '../../fs/write-file-atomic.js';
import { StoreError, errnoOf, fromFsError } from '../errors.js';
import { ARCHIVED_DIR, ENCRYPTION_FILE, EVENTS_FILE, FILE_MODE, RECEIPTS_DIR, SESSIONS_DIR } from '../layout.js';
import { dataKeyOf, newDataKey, type DataKey } from './aead.js';
import { AtRestCipher } from './at-rest-cipher.js';
import type { KeyStore } from './key-store.js';
import { heldPassphraseKey } from './passphrase.js';
import { parseAtRestSettings, type AtRestSettings, type EncryptionState, type KeyRef } from './settings-file.js';

/**
 * encryption.json at the top of the data directory says the store is encrypted and which keychain
 * entry holds its key: the entry's account name and the key's id, never the key. It is plaintext
 * (docs/encryption.md lists it) because it must be read before any key is known.
 */
export { ENCRYPTION_FILE };

export type { AtRestSettings, EncryptionState, KeyRef, PassphraseState } from './settings-file.js';
/** What the status line says holds a passphrase-mode key. */
export const PASSPHRASE_KEY_STORE = 'memory of the running Baton host (passphrase)';

export type AtRestStatus =
  | { state: 'on'; keyId: string; keyStore: string; rotating: boolean }
  | { state: 'off'; reason: string };

export interface ResolvedAtRest {
  cipher: AtRestCipher | undefined;
  status: AtRestStatus;
  state: AtRestSettings | undefined;
}

/** The keychain-mode settings; a store in passphrase mode is refused (BAD_REQUEST): enabling the keychain or rotating does not apply to it. */
export async function readEncryptionState(fs: DurableFs, root: string): Promise<EncryptionState | undefined> {
  const settings = await readAtRestSettings(fs, root);
  if (settings?.mode === 'passphrase') throw new StoreError('BAD_REQUEST', `This store (${root}) is encrypted with a passphrase, not a key in the OS keychain: this does not apply to it. Nothing was changed.`, join(root, ENCRYPTION_FILE));
  return settings;
}

/** encryption.json in either mode, or undefined when the store is not encrypted. */
export async function readAtRestSettings(fs: DurableFs, root: string): Promise<AtRestSettings | undefined> {
  const path = join(root, ENCRYPTION_FILE);
  let text: string;
  try {
    text = (await fs.readFile(path)).toString('utf8');
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw fromFsError(error, path, 'reading the encryption settings');
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new StoreError('KEY_UNAVAILABLE', `${path} is not valid JSON: this store is encrypted and Baton cannot tell which key opens it. Restore the file from a backup; nothing was written.`, path);
  }
  const parsed = parseAtRestSettings(raw);
  if (!parsed.ok) throw new StoreError('KEY_UNAVAILABLE', `${path} is not a valid encryption settings file (${parsed.issues.join('; ')}). Restore it from a backup; nothing was written.`, path);
  return parsed.settings;
}

export async function writeEncryptionState(fs: DurableFs, root: string, state: AtRestSettings): Promise<void> {
  await writeFileAtomic(join(root, ENCRYPTION_FILE), `${JSON.stringify(state, null, 2)}\n`, { fs, mode: FILE_MODE });
}

/** The key a reference names, checked against its id; a precise KEY_UNAVAILABLE otherwise (nothing is written). */
export async function loadKey(keys: KeyStore | null, ref: KeyRef, root: string): Promise<DataKey> {
  const where = join(root, ENCRYPTION_FILE);
  if (!keys) throw new StoreError('KEY_UNAVAILABLE', `This store (${root}) is encrypted at rest and no secret store is available to read its key. Run Baton where the OS keychain is reachable; nothing was written.`, where);
  let secret: Buffer | undefined;
  try {
    secret = await keys.read(ref.account);
  } catch (error) {
    throw new StoreError('KEY_UNAVAILABLE', `This store (${root}) is encrypted at rest and its key could not be read from the ${keys.label}: ${(error as Error).message}. Unlock the keychain and retry; nothing was written.`, where, { cause: error });
  }
  if (!secret) throw new StoreError('KEY_UNAVAILABLE', `This store (${root}) is encrypted at rest and its key (${ref.account}, id ${ref.keyId}) is not in the ${keys.label}. Restore the keychain entry; without it the sessions cannot be read. Nothing was written.`, where);
  let key: DataKey;
  try {
    key = dataKeyOf(secret);
  } catch (error) {
    throw new StoreError('KEY_UNAVAILABLE', `The ${keys.label} entry ${ref.account} is not a Baton data key (${(error as Error).message}); nothing was written.`, where);
  }
  if (key.keyId !== ref.keyId) throw new StoreError('KEY_UNAVAILABLE', `The ${keys.label} entry ${ref.account} holds a different key (id ${key.keyId}) than the one this store is encrypted with (id ${ref.keyId}): wrong key, refused. Nothing was written.`, where);
  return key;
}

/** Creates a key in the keychain and reads it back (a store that silently drops writes must not be trusted with the only copy). */
export async function createKey(keys: KeyStore): Promise<{ key: DataKey; ref: KeyRef }> {
  // Before any random byte: drawing a key loads node:crypto, ~15 modules that a warm listing of a
  // new store otherwise never needs (issue 15, bench/README.md "Twelfth sitting: the warm listing
  // without a host").
  if (keys.refusesNewKeys !== undefined) throw new Error(keys.refusesNewKeys);
  const key = newDataKey();
  const ref = { account: `data-key-${randomBytes(8).toString('hex')}`, keyId: key.keyId };
  await keys.write(ref.account, key.key);
  const back = await keys.read(ref.account);
  if (!back || !back.equals(key.key)) throw new Error(`the ${keys.label} did not return the key it was given`);
  return { key, ref };
}

/**
 * A store with no sessions, receipts or events yet: it can start encrypted without converting
 * anything (an index of no sessions holds nothing, and is rewritten sealed at its next change).
 */
async function isNewStore(fs: DurableFs, root: string): Promise<boolean> {
  for (const d of [SESSIONS_DIR, ARCHIVED_DIR, RECEIPTS_DIR]) {
    const names = await fs.readdir(join(root, d)).catch(() => [] as string[]);
    if (names.some((n) => !n.startsWith('.'))) return false;
  }
  return !fs.existsSync(join(root, EVENTS_FILE));
}

/**
 * Decides how the store at `root` is opened: encrypted with the key encryption.json names (refused
 * with KEY_UNAVAILABLE, before anything is written, when that key cannot be read or is the wrong
 * one); encrypted with a new key for a new store where a secret store works (on by default); or
 * unencrypted, with the reason in `status` for doctor and the UI footer.
 */
/**
 * The key of a passphrase store, from the host that holds it. Loaded only for such a store: the
 * socket client and its wire schemas (node:net, 60-odd zod schemas built at load) were a part of
 * every command's start-up, `baton show` included, for a mode few stores use.
 */
async function requestPassphraseKey(root: string, keyId: string): Promise<DataKey> {
  return (await import('./key-request.js')).requestPassphraseKey(root, keyId);
}

export async function resolveAtRest(fs: DurableFs, root: string, keys: KeyStore | null): Promise<ResolvedAtRest> {
  const state = await readAtRestSettings(fs, root);
  if (state?.mode === 'passphrase') {
    // A host unlocked it at its start; any other process asks that host (and is refused, before writing anything, when none runs).
    const key = heldPassphraseKey(root) ?? (await requestPassphraseKey(root, state.key.keyId));
    return { cipher: new AtRestCipher(root, key), status: { state: 'on', keyId: key.keyId, keyStore: PASSPHRASE_KEY_STORE, rotating: false }, state };
  }
  if (state) return { cipher: await cipherFor(keys, state, root), status: { state: 'on', keyId: state.key.keyId, keyStore: keys!.label, rotating: state.previous.length > 0 }, state };
  if (!keys) return off('encryption at rest is turned off for this process (no secret store configured)');
  if (!(await isNewStore(fs, root))) return off('this store already holds sessions stored unencrypted; `baton encrypt --enable` converts it');
  let created: { key: DataKey; ref: KeyRef };
  try {
    created = await createKey(keys);
  } catch (error) {
    return off(`no secret store is available (${keys.label}: ${(error as Error).message}), so sessions are stored unencrypted`);
  }
  const fresh: EncryptionState = { version: 1, mode: 'keyring', key: created.ref, previous: [], enabledAt: new Date().toISOString() };
  if (!(await createFileAtomic(join(root, ENCRYPTION_FILE), `${JSON.stringify(fresh, null, 2)}\n`, { fs, mode: FILE_MODE }))) {
    // Another process opened the new store at the same moment and its key won: use that one.
    await keys.remove(created.ref.account).catch(() => false);
    return resolveAtRest(fs, root, keys);
  }
  await removePlainCaches(fs, root);
  return { cipher: new AtRestCipher(root, created.key), status: { state: 'on', keyId: created.key.keyId, keyStore: keys.label, rotating: false }, state: fresh };
}

/**
 * Caches a new store can hold in the clear from before its key existed. A `baton list` opens the
 * store without creating a key (cli/commands/listing-key-store.ts), and its scan writes the
 * importers' cache and the candidate index (Claude Code / Codex titles and paths) unsealed. The
 * store turning encrypted would otherwise leave them readable until they next change. They are
 * caches (a scan rebuilds them), so they are removed. Names as importersCacheFile,
 * candidateIndexFileFor, verifiedFileOf and SEARCH_INDEX_FILE give them (not imported: those
 * modules are not needed to open a store; at-rest-state.test.ts holds the names to them).
 */
export const PLAIN_CACHES_OF_A_NEW_STORE = ['importers-cache.json', 'importers-candidates.idx', 'importers-candidates.idx.verified', 'search-index.bin'];

async function removePlainCaches(fs: DurableFs, root: string): Promise<void> {
  for (const name of PLAIN_CACHES_OF_A_NEW_STORE) {
    // Written before this key existed, so never sealed. Removed before any sealed write can replace them.
    await fs.unlink(join(root, name)).catch((error: unknown) => {
      if (errnoOf(error) !== 'ENOENT') throw fromFsError(error, join(root, name), 'removing a cache written before encryption was on');
    });
  }
}

export async function cipherFor(keys: KeyStore | null, state: AtRestSettings, root: string): Promise<AtRestCipher> {
  if (state.mode === 'passphrase') return new AtRestCipher(root, heldPassphraseKey(root) ?? (await requestPassphraseKey(root, state.key.keyId)));
  const current = await loadKey(keys, state.key, root);
  const older: DataKey[] = [];
  for (const ref of state.previous) older.push(await loadKey(keys, ref, root));
  return new AtRestCipher(root, current, older);
}

function off(reason: string): ResolvedAtRest {
  return { cipher: undefined, status: { state: 'off', reason }, state: undefined };
}
