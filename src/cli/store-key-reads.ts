/**
 * An encrypted store's keychain read, started by bin/baton.js before it compiles the bundle that
 * opens the store (dist/cli/baton-key-read.cjs): `baton list` and the picker without a host. Its
 * own bundle, the key store's bus client and nothing more: as part of the fast-list bundle, the
 * host's client and its wire came compiled from that bundle's cache before every encrypted first
 * screen, and were never called (bench/README.md, issue 17, twenty-sixth sitting).
 */
import { resolveDataDir } from '../core/paths.js';
import { keychainReadsAnswered, startKeychainReads } from '../core/store/at-rest/key-store.js';

/**
 * Starts the keychain reads of the store at the data directory; resolves once the reads' calls are
 * on the bus (key-store.ts), so the bus answers them while the caller compiles its bundle. The
 * store's open takes them (a store that is not keychain-encrypted starts none).
 */
export function startStoreKeyReads(): Promise<void> {
  return startKeychainReads(resolveDataDir());
}

/**
 * The build's warm-up only (scripts/build-cli.js, warmKeyRead): the keychain read of the encrypted
 * store at BATON_HOME, on a scratch Secret Service, run to its answer, so this bundle's code cache
 * holds the bus client compiled. Whether a key came back.
 */
export async function warmStoreKeyRead(): Promise<boolean> {
  await startStoreKeyReads();
  return (await keychainReadsAnswered()) > 0;
}
