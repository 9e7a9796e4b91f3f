import type { DoctorCheck } from '../../doctor.js';
import { openStore } from '../index.js';
import { encryptionView } from './encryption-view.js';
import { passphraseSettings } from './host-unlock.js';

/** `baton doctor`: whether sessions are encrypted at rest, and if not, why and what would turn it on. */
export async function checkEncryption(dataDir: string): Promise<DoctorCheck> {
  const name = 'sessions encrypted at rest';
  let store;
  try {
    store = await openStore(dataDir);
  } catch (error) {
    if (await passphraseSettings(dataDir).catch(() => undefined)) {
      return { name, ok: false, detail: `Encrypted at rest with a passphrase, and locked: ${(error as Error).message}`, fix: 'Start baton serve and type the passphrase: it holds the key in memory and gives it to the other baton commands.' };
    }
    return { name, ok: false, detail: (error as Error).message, fix: 'The data key of this store is in the OS keychain: unlock it (or run Baton where it is reachable).' };
  }
  const view = encryptionView(store.atRest);
  await store.close();
  if (view.state === 'on') return { name, ok: true, detail: view.detail };
  const fix = /baton encrypt --enable/.test(view.detail)
    ? 'Run baton encrypt --enable to convert this store (one session at a time; a crash leaves every session readable).'
    : 'Sessions are stored unencrypted (0600 files in a 0700 directory). On Linux, run a Secret Service (gnome-keyring or KWallet) in the session; Baton then encrypts new stores, and baton encrypt --enable converts this one.';
  return { name, ok: false, detail: view.detail, fix };
}
