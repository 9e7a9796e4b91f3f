import { createRequire } from 'node:module';

/**
 * Where the data key lives: the platform's secret store through @napi-rs/keyring (N-API, so the
 * same binary serves the CLI and Electron's main process). Never a file beside the data.
 * - Linux: Secret Service (libsecret's D-Bus API; gnome-keyring, KWallet). Pinned: the binding's
 *   fallback, the kernel keyring, forgets everything at reboot and would lose the data with it.
 * - macOS: the login Keychain. Windows: Credential Manager (DPAPI).
 */
export const KEYRING_SERVICE = 'baton';

export interface KeyStore {
  /** Shown in doctor, the UI footer and `baton encrypt --status`. */
  readonly label: string;
  /** The secret under `account`, undefined when there is none; throws when the store cannot be reached. */
  read(account: string): Promise<Buffer | undefined>;
  write(account: string, secret: Buffer): Promise<void>;
  remove(account: string): Promise<boolean>;
}

type Keyring = typeof import('@napi-rs/keyring');
let keyring: Keyring | undefined;
/** require, not import(): the CLI bundle runs in vm.Script, which has no dynamic-import callback. */
const requireNative = createRequire(import.meta.url);

function platformLabel(): string {
  if (process.platform === 'darwin') return 'macOS Keychain';
  if (process.platform === 'win32') return 'Windows Credential Manager';
  return 'Secret Service';
}

/**
 * Entries this process has read, by account: a store opened again in the same process (a host
 * reopening, doctor's second check, list() after open) does not pay another D-Bus round trip
 * (≈ 5 ms wall, 2.6 ms CPU; bench/README.md, issue 17). The key is in this process's memory while
 * its store is open anyway; it now stays there until the process ends. This process's own writes
 * and removals drop the entry; a change made by another process is seen by the next process, and
 * the key id check (at-rest-state.ts loadKey) still refuses a key that does not match the store.
 */
const readThisProcess = new Map<string, Buffer>();

/** The OS secret store; the native binding is loaded on first use (a CLI command that never opens the store does not pay for it). */
export function osKeyStore(): KeyStore {
  const entry = async (account: string) => {
    const { AsyncEntry } = (keyring ??= requireNative('@napi-rs/keyring') as Keyring);
    return new AsyncEntry(KEYRING_SERVICE, account, { linux: { store: 'secret-service' } });
  };
  return {
    label: platformLabel(),
    async read(account) {
      const known = readThisProcess.get(account);
      if (known) return Buffer.from(known);
      const secret = await (await entry(account)).getSecret();
      if (secret === null) return undefined;
      readThisProcess.set(account, Buffer.from(secret));
      return Buffer.from(secret);
    },
    async write(account, secret) {
      readThisProcess.delete(account);
      await (await entry(account)).setSecret(secret);
    },
    async remove(account) {
      readThisProcess.delete(account);
      return (await entry(account)).deleteCredential();
    },
  };
}
