import { osKeyStore, type KeyStore } from '../../core/store/at-rest/key-store.js';

const LISTING_CREATES_NO_KEYS = 'a listing does not create keys';

/**
 * The OS key store as a listing uses it: it reads an encrypted store's key, and never creates
 * one. A listing writes nothing to the store, so a new store (no sessions yet) need not turn
 * encryption on at a `baton list`: the first command that writes a session does (the store's
 * "on by default" decision is the same then). Without this, every listing of a new store on a
 * machine with no working secret store loaded the native keyring and tried to create a key, and
 * failed, on every run: ~10 ms of a warm `baton list --json` (bench/README.md, issue 15 seventh sitting).
 */
export function listingKeyStore(keys: KeyStore = osKeyStore()): KeyStore {
  return {
    label: keys.label,
    read: (account) => keys.read(account),
    write: () => Promise.reject(new Error(LISTING_CREATES_NO_KEYS)),
    remove: (account) => keys.remove(account),
    refusesNewKeys: LISTING_CREATES_NO_KEYS,
  };
}
