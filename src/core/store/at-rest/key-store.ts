import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ENCRYPTION_FILE } from '../layout.js';
import { readSecretOverBus } from './secret-service-read.js';

/**
 * Where the data key lives: the platform's secret store through @napi-rs/keyring (N-API, so the
 * same binary serves the CLI and Electron's main process). Never a file beside the data.
 * - Linux: Secret Service (libsecret's D-Bus API; gnome-keyring, KWallet). Pinned: the binding's
 *   fallback, the kernel keyring, forgets everything at reboot and would lose the data with it.
 * - macOS: the login Keychain. Windows: Credential Manager (DPAPI).
 */
export const KEYRING_SERVICE = 'baton';
/** The keychain account of a data key, as encryption.json names it. */
export const KEY_ACCOUNT_PATTERN = /^data-key-[0-9a-f]{16,64}$/;

export interface KeyStore {
  /** Shown in doctor, the UI footer and `baton encrypt --status`. */
  readonly label: string;
  /** The secret under `account`, undefined when there is none; throws when the store cannot be reached. */
  read(account: string): Promise<Buffer | undefined>;
  write(account: string, secret: Buffer): Promise<void>;
  remove(account: string): Promise<boolean>;
  /**
   * Set on a store that creates no keys (a listing's, cli/commands/listing-key-store.ts): why.
   * createKey refuses with it before it draws a key that the write would refuse anyway.
   */
  readonly refusesNewKeys?: string;
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

/** A secret as the binding answers it (number[]), or as this process read it over the bus (Buffer); null when there is none. */
type SecretRead = Promise<number[] | Buffer | null>;
const EARLY_READS = Symbol.for('baton.keychain-early-reads');

/**
 * Keychain reads started before the store opens (startKeychainReads), by account, each taken by
 * the first read of its account. On globalThis because the launcher starts them from one bundle
 * (dist/cli/baton-key-read.cjs) and the store reads them from another, each with its own modules.
 */
function earlyReads(): Map<string, SecretRead> {
  const holder = globalThis as { [EARLY_READS]?: Map<string, SecretRead> };
  return (holder[EARLY_READS] ??= new Map());
}

function entry(account: string) {
  const { AsyncEntry } = (keyring ??= requireNative('@napi-rs/keyring') as Keyring);
  return new AsyncEntry(KEYRING_SERVICE, account, { linux: { store: 'secret-service' } });
}

/**
 * Starts reading the keys a keychain-encrypted store at `dataDir` names (encryption.json: its key
 * and the ones being rotated away from), without waiting. A warm listing of an encrypted store
 * spent the D-Bus round trip of its key (12–46 ms wall, bench/README.md "Eighth sitting: the
 * encrypted candidate index sealed in pieces") after its bundle had compiled; started before the
 * compile, the two overlap (issue 17). Only a warm-up: the store's open reads and checks the file
 * as always (a file it refuses is refused; loadKey checks each key's id), and anything unexpected
 * here (no file, not JSON, passphrase mode, an account of another shape) starts nothing.
 *
 * On Linux the read goes over the session bus from this process (secret-service-read.ts), not
 * through the binding, whose entry negotiates its session synchronously (8–10 ms on the main
 * thread, plus 4–5 ms to load it, before the first screen); whatever that read cannot answer is
 * read through the binding, as before. Resolves once the reads' first calls are written, so the
 * bus answers them while the caller compiles its bundle.
 */
export function startKeychainReads(dataDir: string): Promise<void> {
  let settings: unknown;
  try {
    settings = JSON.parse(readFileSync(join(dataDir, ENCRYPTION_FILE), 'utf8'));
  } catch {
    return Promise.resolve(); // not encrypted (no file) or a file the store's open reports precisely
  }
  const sent: Array<Promise<void>> = [];
  for (const account of keychainAccountsOf(settings)) {
    if (readThisProcess.has(account) || earlyReads().has(account)) continue;
    let read: SecretRead;
    if (process.platform === 'linux') {
      const overBus = readSecretOverBus(KEYRING_SERVICE, account);
      sent.push(overBus.sent);
      read = overBus.secret.then<number[] | Buffer | null>((secret) => secret ?? entry(account).getSecret());
    } else {
      try {
        read = entry(account).getSecret();
      } catch {
        return Promise.resolve(); // no native binding: the store's own read fails with the reason
      }
    }
    read.catch(() => undefined); // a failure belongs to the read that takes it, not to the process
    earlyReads().set(account, read);
  }
  return Promise.all(sent).then(() => undefined);
}

/**
 * How many of the started reads answered a secret, once all of them have answered: for the build's
 * warm-up of the key-read bundle (scripts/build-cli.js), which runs a read to its end so the
 * bundle's code cache holds the bus client's reply parsing, compiled (store-key-reads.ts warmStoreKeyRead).
 */
export async function keychainReadsAnswered(): Promise<number> {
  const answers = await Promise.all([...earlyReads().values()].map((read) => read.catch(() => null)));
  return answers.filter((secret) => secret !== null).length;
}

/** The accounts of a keychain-mode encryption.json (current key first); none for anything else. */
function keychainAccountsOf(settings: unknown): string[] {
  const { mode, key, previous } = (settings ?? {}) as { mode?: unknown; key?: { account?: unknown }; previous?: unknown };
  if (mode !== 'keyring') return [];
  const refs = [key, ...(Array.isArray(previous) ? previous : [])] as Array<{ account?: unknown } | undefined>;
  const accounts = refs.map((ref) => ref?.account);
  return accounts.every((a): a is string => typeof a === 'string' && KEY_ACCOUNT_PATTERN.test(a)) ? accounts : [];
}

/** The OS secret store; the native binding is loaded on first use (a CLI command that never opens the store does not pay for it). */
export function osKeyStore(): KeyStore {
  return {
    label: platformLabel(),
    async read(account) {
      const known = readThisProcess.get(account);
      if (known) return Buffer.from(known);
      const early = earlyReads().get(account);
      earlyReads().delete(account);
      const secret = await (early ?? entry(account).getSecret());
      if (secret === null) return undefined;
      readThisProcess.set(account, Buffer.from(secret));
      return Buffer.from(secret);
    },
    async write(account, secret) {
      readThisProcess.delete(account);
      earlyReads().delete(account);
      await entry(account).setSecret(secret);
    },
    async remove(account) {
      readThisProcess.delete(account);
      earlyReads().delete(account);
      return entry(account).deleteCredential();
    },
  };
}
