import { join } from 'node:path';
import { nodeDurableFs, type DurableFs } from '../../fs/durable-fs.js';
import { createFileAtomic } from '../../fs/write-file-atomic.js';
import { StoreError } from '../errors.js';
import { FILE_MODE } from '../layout.js';
import { AtRestCipher } from './at-rest-cipher.js';
import { ENCRYPTION_FILE, cipherFor, createKey, readAtRestSettings, readEncryptionState, writeEncryptionState, type EncryptionState, type PassphraseState } from './at-rest-state.js';
import { derivePassphraseKey, newScryptParams, unlockWithPassphrase } from './passphrase.js';
import { osKeyStore, type KeyStore } from './key-store.js';
import { resealStore, type ResealReport } from './reseal.js';

/**
 * `baton encrypt --enable` and `baton key rotate`. Both write encryption.json first (which key is
 * current, which older keys are still read), then re-encrypt file by file (reseal.ts). Until the
 * last file has moved, the old state stays readable: plaintext for --enable, the previous key for
 * a rotation (kept in the keychain and in encryption.json until then). Running either again after
 * a crash resumes where it stopped. Callers make sure no host is running (it holds the old cipher).
 */
export interface ConvertOptions {
  fs?: DurableFs;
  keyStore?: KeyStore | null;
  onSession?: (id: string) => void;
}

export interface EnableResult {
  /** False when the store was already encrypted (the run only resumed or checked). */
  created: boolean;
  keyId: string;
  report: ResealReport;
}

export async function enableEncryption(root: string, options: ConvertOptions = {}): Promise<EnableResult> {
  const fs = options.fs ?? nodeDurableFs;
  const keys = options.keyStore === undefined ? osKeyStore() : options.keyStore;
  let state = await readEncryptionState(fs, root);
  let created = false;
  if (!state) {
    if (!keys) throw new StoreError('KEY_UNAVAILABLE', 'No secret store is configured, so there is nowhere safe to keep a key; nothing was changed.', root);
    let fresh;
    try {
      fresh = await createKey(keys);
    } catch (error) {
      throw new StoreError('KEY_UNAVAILABLE', `No secret store is available (${keys.label}: ${(error as Error).message}); Baton never keeps the key in a file, so nothing was changed.`, root, { cause: error });
    }
    const next: EncryptionState = { version: 1, mode: 'keyring', key: fresh.ref, previous: [], enabledAt: new Date().toISOString() };
    created = await createFileAtomic(join(root, ENCRYPTION_FILE), `${JSON.stringify(next, null, 2)}\n`, { fs, mode: FILE_MODE });
    // Another `--enable` won the race: its key is the store's, ours goes.
    if (!created) await keys.remove(fresh.ref.account).catch(() => false);
    state = (await readEncryptionState(fs, root))!;
  }
  const cipher = await cipherFor(keys, state, root);
  const report = await resealStore(root, fs, cipher, options.onSession);
  return { created, keyId: state.key.keyId, report };
}

/**
 * `baton encrypt --enable --passphrase`: the key derived from `passphrase` with scrypt; the file
 * keeps the salt, the parameters and the key id, then the store is re-encrypted like --enable.
 * Run again on a store already in passphrase mode it resumes, after checking the passphrase.
 */
export async function enablePassphraseEncryption(root: string, passphrase: Buffer, options: ConvertOptions = {}): Promise<EnableResult> {
  const fs = options.fs ?? nodeDurableFs;
  let state = await readAtRestSettings(fs, root);
  if (state?.mode === 'keyring') throw new StoreError('BAD_REQUEST', `This store (${root}) is already encrypted with a key in the OS keychain (id ${state.key.keyId}); it stays so. Nothing was changed.`, join(root, ENCRYPTION_FILE));
  let created = false;
  if (!state) {
    const kdf = newScryptParams();
    const derived = await derivePassphraseKey(passphrase, kdf);
    const next: PassphraseState = { version: 1, mode: 'passphrase', kdf, key: { keyId: derived.keyId }, enabledAt: new Date().toISOString() };
    created = await createFileAtomic(join(root, ENCRYPTION_FILE), `${JSON.stringify(next, null, 2)}\n`, { fs, mode: FILE_MODE });
    state = (await readAtRestSettings(fs, root))!;
    if (state.mode !== 'passphrase') throw new StoreError('CONFLICT', `Another process turned on keychain encryption of ${root} at the same moment; nothing else was changed.`, join(root, ENCRYPTION_FILE));
  }
  const key = await unlockWithPassphrase(root, state.kdf, state.key.keyId, passphrase);
  const report = await resealStore(root, fs, new AtRestCipher(root, key), options.onSession);
  return { created, keyId: key.keyId, report };
}

export interface RotateResult {
  from: string[];
  to: string;
  report: ResealReport;
}

export async function rotateKey(root: string, options: ConvertOptions = {}): Promise<RotateResult> {
  const fs = options.fs ?? nodeDurableFs;
  const keys = options.keyStore === undefined ? osKeyStore() : options.keyStore;
  let state = await readEncryptionState(fs, root);
  if (!state) throw new StoreError('BAD_REQUEST', `This store (${root}) is not encrypted at rest: run baton encrypt --enable first.`, root);
  // Load the current key before making a new one: a store whose key is gone must not get a second.
  await cipherFor(keys, state, root);
  if (state.previous.length === 0) {
    const fresh = await createKey(keys!);
    state = { ...state, key: fresh.ref, previous: [state.key] };
    await writeEncryptionState(fs, root, state);
  }
  const cipher = await cipherFor(keys, state, root);
  const report = await resealStore(root, fs, cipher, options.onSession);
  const from = state.previous.map((k) => k.keyId);
  // Every file has moved: only now does the store stop reading the old keys, and then they go.
  await writeEncryptionState(fs, root, { ...state, previous: [] });
  for (const old of state.previous) await keys!.remove(old.account).catch(() => false);
  return { from, to: state.key.keyId, report };
}
