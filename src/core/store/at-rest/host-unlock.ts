import { nodeDurableFs } from '../../fs/durable-fs.js';
import { readAtRestSettings, type PassphraseState } from './at-rest-state.js';
import { holdPassphraseKey, unlockWithPassphrase } from './passphrase.js';

/** The passphrase settings of the store at `dataDir`, or undefined when it is not in passphrase mode (a host then starts as before). */
export async function passphraseSettings(dataDir: string): Promise<PassphraseState | undefined> {
  const settings = await readAtRestSettings(nodeDurableFs, dataDir);
  return settings?.mode === 'passphrase' ? settings : undefined;
}

/**
 * A host's start in passphrase mode: the key derived from `passphrase`, checked against the key id
 * (a wrong passphrase is refused, KEY_UNAVAILABLE, before anything is opened or written), then held
 * in this process's memory only, for its own store and for the CLI's `atRest.key` requests.
 */
export async function unlockHostStore(dataDir: string, settings: PassphraseState, passphrase: Buffer): Promise<string> {
  const key = await unlockWithPassphrase(dataDir, settings.kdf, settings.key.keyId, passphrase);
  holdPassphraseKey(dataDir, key);
  return key.keyId;
}
