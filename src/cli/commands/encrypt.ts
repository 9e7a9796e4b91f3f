import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { resolveDataDir } from '../../core/paths.js';
import { openStore } from '../../core/store/index.js';
import { encryptionView } from '../../core/store/at-rest/encryption-view.js';
import { connectEndpoint } from '../../core/transport/client.js';
import { loadOrCreateToken, resolveEndpoint } from '../../core/transport/endpoint.js';
import { MIN_PASSPHRASE_CHARS } from '../../core/store/at-rest/passphrase.js';
import { PASSPHRASE_KEY_STORE } from '../../core/store/at-rest/at-rest-state.js';
import { passphraseSettings } from '../../core/store/at-rest/host-unlock.js';
import { createOutput, EXIT, type Output } from '../output.js';
import { readPassphrase } from '../passphrase-input.js';

/** A host that does not answer this fast is treated as absent. */
const HOST_PROBE_TIMEOUT_MS = 1_000;

/**
 * `baton encrypt --status | --enable` and `baton key rotate`: encryption at rest of the store
 * (src/core/store/at-rest). Converting and rotating rewrite files a running host has open and
 * seals with the key it holds in memory, so both refuse while a host answers on the endpoint.
 */
export function registerEncrypt(program: Command): void {
  program
    .command('encrypt')
    .description('encryption at rest of the session store: --status, or --enable to convert an existing store')
    .option('--status', 'say whether the store is encrypted, with which key, or why not')
    .option('--enable', 'encrypt an existing store with a new key in the OS keychain, one session at a time (resumes after a crash)')
    .option('--passphrase', 'with --enable, where no OS keychain exists: derive the key from a passphrase (asked without echo, or read from BATON_PASSPHRASE_FD / stdin); only a running host then holds it')
    .option('--json', 'print one versioned JSON object')
    .action(async (flags: { status?: boolean; enable?: boolean; passphrase?: boolean; json?: boolean }) => {
      const out = createOutput(!!flags.json);
      if (!!flags.status === !!flags.enable) {
        out.problem('encrypt', 'BAD_ARGUMENT', 'give exactly one of --status or --enable');
        process.exitCode = EXIT.usage;
        return;
      }
      if (flags.passphrase && !flags.enable) {
        out.problem('encrypt', 'BAD_ARGUMENT', '--passphrase goes with --enable');
        process.exitCode = EXIT.usage;
        return;
      }
      process.exitCode = await (flags.enable ? (flags.passphrase ? enablePassphrase(out) : enable(out)) : status(out));
    });
}

export function registerKey(program: Command): void {
  const key = program.command('key').description('the data key of encryption at rest');
  key
    .command('rotate')
    .description('re-encrypt every session under a new key; the old key is kept until the last file has moved (resumes after a crash)')
    .option('--json', 'print one versioned JSON object')
    .action(async (flags: { json?: boolean }) => {
      process.exitCode = await rotate(createOutput(!!flags.json));
    });
}

async function status(out: Output): Promise<number> {
  const dataDir = resolveDataDir();
  try {
    const store = await openStore(dataDir);
    const view = encryptionView(store.atRest);
    await store.close();
    const mode = store.atRest.state === 'on' ? (store.atRest.keyStore === PASSPHRASE_KEY_STORE ? 'passphrase' : 'keyring') : undefined;
    out.result('encrypt', { dataDir, ...view, ...(store.atRest.state === 'on' ? { mode, keyId: store.atRest.keyId, keyStore: store.atRest.keyStore } : {}) }, () => view.detail);
    return EXIT.ok;
  } catch (error) {
    // Passphrase mode with no unlocked host: the mode is still known (exit 6 says the key is not here).
    const settings = await passphraseSettings(dataDir).catch(() => undefined);
    if (settings) {
      const detail = `Encrypted at rest (AES-256-GCM) with a key derived from a passphrase, id ${settings.key.keyId}; locked: ${(error as Error).message}`;
      out.result('encrypt', { dataDir, state: 'on', mode: 'passphrase', locked: true, keyId: settings.key.keyId, detail }, () => detail);
      return EXIT.locked;
    }
    return failed(out, 'encrypt', error);
  }
}

async function enable(out: Output): Promise<number> {
  const dataDir = resolveDataDir();
  if (await hostRunning(dataDir)) return refuseWhileHostRuns(out, 'encrypt');
  try {
    const { enableEncryption } = await import('../../core/store/at-rest/convert.js');
    const r = await enableEncryption(dataDir);
    out.result('encrypt', { dataDir, state: 'on', created: r.created, keyId: r.keyId, ...r.report }, () =>
      [
        `${r.created ? 'Encryption at rest is on' : 'Encryption at rest was already on'}: key ${r.keyId} in the OS keychain.`,
        `${r.report.sessions} sessions checked, ${r.report.resealed} files encrypted, ${r.report.current} already encrypted.`,
        ...r.report.undecodable.map((u) => `kept as it was (damaged): ${u}`),
      ].join('\n'),
    );
    return EXIT.ok;
  } catch (error) {
    return failed(out, 'encrypt', error);
  }
}

async function enablePassphrase(out: Output): Promise<number> {
  const dataDir = resolveDataDir();
  if (await hostRunning(dataDir)) return refuseWhileHostRuns(out, 'encrypt');
  try {
    const passphrase = await readPassphrase('Passphrase for the Baton store: ');
    if (process.stdin.isTTY && !process.env.BATON_PASSPHRASE_FD) {
      const again = await readPassphrase('The same passphrase again: ');
      if (!again.equals(passphrase)) {
        out.problem('encrypt', 'BAD_PASSPHRASE', 'the two passphrases differ; nothing was changed');
        return EXIT.failure;
      }
    }
    if (passphrase.toString('utf8').length < MIN_PASSPHRASE_CHARS) {
      out.problem('encrypt', 'BAD_PASSPHRASE', `a passphrase needs at least ${MIN_PASSPHRASE_CHARS} characters; nothing was changed`);
      return EXIT.failure;
    }
    const { enablePassphraseEncryption } = await import('../../core/store/at-rest/convert.js');
    const r = await enablePassphraseEncryption(dataDir, passphrase);
    out.result('encrypt', { dataDir, state: 'on', mode: 'passphrase', created: r.created, keyId: r.keyId, ...r.report }, () =>
      [
        `${r.created ? 'Encryption at rest is on' : 'Encryption at rest was already on'}: key ${r.keyId}, derived from your passphrase (scrypt). Nothing but a running host keeps it.`,
        `${r.report.sessions} sessions checked, ${r.report.resealed} files encrypted, ${r.report.current} already encrypted.`,
        'Start `baton serve` (it asks for the passphrase): every other baton command gets the key from it, and refuses (exit 6) while it is not running.',
        ...r.report.undecodable.map((u) => `kept as it was (damaged): ${u}`),
      ].join('\n'),
    );
    return EXIT.ok;
  } catch (error) {
    return failed(out, 'encrypt', error);
  }
}

async function rotate(out: Output): Promise<number> {
  const dataDir = resolveDataDir();
  if (await hostRunning(dataDir)) return refuseWhileHostRuns(out, 'key rotate');
  try {
    const { rotateKey } = await import('../../core/store/at-rest/convert.js');
    const r = await rotateKey(dataDir);
    out.result('key rotate', { dataDir, from: r.from, to: r.to, ...r.report }, () =>
      [`The store is encrypted with key ${r.to}; ${r.from.join(', ')} removed from the OS keychain.`, `${r.report.sessions} sessions, ${r.report.resealed} files re-encrypted.`, ...r.report.undecodable.map((u) => `kept as it was (damaged): ${u}`)].join('\n'),
    );
    return EXIT.ok;
  } catch (error) {
    return failed(out, 'key rotate', error);
  }
}

async function hostRunning(dataDir: string): Promise<boolean> {
  const endpoint = resolveEndpoint(dataDir);
  if (process.platform !== 'win32' && !existsSync(endpoint.address)) return false;
  try {
    const client = await connectEndpoint({ endpoint, token: await loadOrCreateToken(endpoint.tokenPath), timeoutMs: HOST_PROBE_TIMEOUT_MS });
    client.close();
    return true;
  } catch {
    return false; // a socket file left behind by a host that is gone
  }
}

function refuseWhileHostRuns(out: Output, command: string): number {
  out.problem(command, 'HOST_RUNNING', 'A Baton host (the desktop app or baton serve) is running on this store: quit it first. Nothing was changed.');
  return EXIT.failure;
}

function failed(out: Output, command: string, error: unknown): number {
  out.problem(command, (error as { code?: string }).code ?? 'INTERNAL', (error as Error).message);
  return EXIT.failure;
}
