import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { isValidId } from '../../shared/ids.js';
import { createFileAtomic } from '../../core/fs/index.js';
import { openCliStore } from '../context.js';
import { createOutput, EXIT, type Output } from '../output.js';

/**
 * `baton export <id>` writes one portable bundle file (signed tar.gz, optionally encrypted);
 * `baton import FILE` verifies all of it before writing anything, then lands it like a handoff.
 */
export const PASSPHRASE_FILE_MAX_BYTES = 4096;

interface ExportFlags {
  out?: string;
  passphraseFile?: string;
  toDevice?: string;
  plain?: boolean;
  json?: boolean;
}

async function readPassphrase(file: string): Promise<string> {
  const bytes = await readFile(file);
  if (bytes.length > PASSPHRASE_FILE_MAX_BYTES) throw Object.assign(new Error(`${file} is larger than ${PASSPHRASE_FILE_MAX_BYTES} bytes; put only the passphrase in it.`), { code: 'BAD_ARGUMENT' });
  // A trailing newline from `echo … > file` is not part of the passphrase.
  const passphrase = bytes.toString('utf8').replace(/\r?\n$/, '');
  if (passphrase.length < 8) throw Object.assign(new Error(`The passphrase in ${file} is shorter than 8 characters.`), { code: 'BAD_ARGUMENT' });
  return passphrase;
}

export function registerExport(program: Command): void {
  program
    .command('export <session-id>')
    .description('write a session to one portable, signed bundle file (move it with scp or a USB stick)')
    .option('--out <file>', 'where to write the bundle (default ./baton-<id>.baton)')
    .option('--passphrase-file <file>', 'encrypt the bundle with the passphrase in this file (scrypt + AES-256-GCM)')
    .option('--to-device <name>', 'encrypt the bundle for one paired device (only it can open it)')
    .option('--plain', 'write it unencrypted even when encryption at rest is on (warns)')
    .option('--json', 'print one versioned JSON object')
    .action(async (sessionId: string, flags: ExportFlags) => {
      process.exitCode = await runExport(createOutput(!!flags.json), sessionId, flags);
    });
}

async function runExport(out: Output, sessionId: string, flags: ExportFlags): Promise<number> {
  if (!isValidId(sessionId)) {
    out.problem('export', 'BAD_ARGUMENT', `"${sessionId}" is not a valid session id`);
    return EXIT.usage;
  }
  if ([flags.passphraseFile, flags.toDevice, flags.plain].filter(Boolean).length > 1) {
    out.problem('export', 'BAD_ARGUMENT', 'Choose one of --passphrase-file, --to-device and --plain.');
    return EXIT.usage;
  }
  const { dataDir, store } = await openCliStore();
  try {
    const { exportSession } = await import('../../core/lifecycle/export-session.js');
    const { exportNeedsEncryption, atRestEncrypted } = await import('../../core/lifecycle/export-policy.js');
    const { bundleFileName } = await import('../../core/lifecycle/bundle-layout.js');
    let encryption: Parameters<typeof exportSession>[3] = { kind: 'none' };
    if (flags.passphraseFile) encryption = { kind: 'passphrase', passphrase: await readPassphrase(flags.passphraseFile) };
    else if (flags.toDevice) {
      const { findPeer, readPeers } = await import('../../core/crypto/peers.js');
      const found = findPeer(await readPeers(dataDir), flags.toDevice);
      if (!found.ok) {
        out.problem('export', 'NOT_PAIRED', found.message);
        return EXIT.failure;
      }
      encryption = { kind: 'device', peer: found.peer };
    }
    if (!flags.plain && exportNeedsEncryption(await atRestEncrypted(dataDir), encryption.kind)) {
      out.problem('export', 'ENCRYPTION_REQUIRED', 'Encryption at rest is on, so a session is never exported in clear by accident: pass --passphrase-file FILE or --to-device NAME, or --plain to export it unencrypted.');
      return EXIT.failure;
    }
    await store.getSession(sessionId);
    const result = await exportSession(store, dataDir, sessionId, encryption);
    const file = resolve(flags.out ?? bundleFileName(sessionId));
    if (!(await createFileAtomic(file, result.bytes, { mode: 0o600 }))) {
      out.problem('export', 'EXISTS', `${file} exists already; pick another --out or remove it.`);
      return EXIT.failure;
    }
    if (flags.plain) process.stderr.write('baton export: warning: the bundle is not encrypted; anyone who gets the file can read the session (secrets stay redacted).\n');
    out.result('export', { sessionId, file, bytes: result.bytes.length, messages: result.messageCount, handoffId: result.handoffId, encryption: result.encryption }, () =>
      [`Exported session ${sessionId} (${result.messageCount} messages) to ${file}: ${result.bytes.length} bytes, ${result.encryption === 'none' ? 'signed, not encrypted' : result.encryption === 'device' ? `signed and encrypted for ${flags.toDevice}` : 'signed and encrypted with the passphrase'}.`, `On the other machine: baton import ${file}${flags.passphraseFile ? ' --passphrase-file FILE' : ''}`].join('\n'),
    );
    return EXIT.ok;
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'IO_ERROR';
    out.problem('export', code, (error as Error).message);
    return code === 'BAD_ARGUMENT' ? EXIT.usage : EXIT.failure;
  } finally {
    await store.close();
  }
}

interface ImportFlags {
  passphraseFile?: string;
  trust?: boolean;
  json?: boolean;
}

export function registerImport(program: Command): void {
  program
    .command('import <file>')
    .description('verify a bundle made by baton export (every hash and the signature) and add its session')
    .option('--passphrase-file <file>', 'the passphrase of an encrypted bundle')
    .option('--trust', 'import a bundle that is unsigned or signed by a device that is not paired (warns)')
    .option('--json', 'print one versioned JSON object')
    .action(async (file: string, flags: ImportFlags) => {
      process.exitCode = await runImport(createOutput(!!flags.json), file, flags);
    });
}

async function runImport(out: Output, file: string, flags: ImportFlags): Promise<number> {
  const { dataDir, store } = await openCliStore();
  try {
    const { importBundle } = await import('../../core/lifecycle/import-bundle.js');
    const { BUNDLE_FILE_MAX_BYTES } = await import('../../core/lifecycle/bundle-tar.js');
    const { readSmallFile } = await import('../../core/fs/read-small-file.js');
    const read = await readSmallFile(resolve(file), BUNDLE_FILE_MAX_BYTES, 'the largest bundle Baton imports');
    if (!read || 'error' in read) {
      out.problem('import', read ? 'BAD_FILE' : 'NOT_FOUND', `${file}: ${read ? read.error : 'no such file'}`);
      return EXIT.failure;
    }
    const passphrase = flags.passphraseFile ? await readPassphrase(flags.passphraseFile) : undefined;
    const result = await importBundle(read.bytes, { store, dataDir, trust: !!flags.trust, ...(await runningHost(dataDir)), ...(passphrase !== undefined ? { passphrase } : {}) });
    if (!result.ok) {
      out.problem('import', result.code, `${file} was refused, nothing was written: ${result.message}`, result.entry ? { entry: result.entry } : {});
      return EXIT.failure;
    }
    if (result.warning) process.stderr.write(`baton import: warning: ${result.warning}\n`);
    const { answer: _answer, ok: _ok, ...value } = result;
    out.result('import', value, () =>
      result.status === 'duplicate'
        ? `Session ${result.sessionId} was imported before; nothing changed.`
        : `Imported session ${result.sessionId} (${result.origin === 'verified' ? `verified: signed by ${result.signer?.name}` : 'unverified origin'}). Open it with: baton handoff --session ${result.sessionId}`,
    );
    return EXIT.ok;
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'IO_ERROR';
    out.problem('import', code, (error as Error).message);
    return code === 'BAD_ARGUMENT' ? EXIT.usage : EXIT.failure;
  } finally {
    await store.close();
  }
}

/**
 * The running host's socket, when there can be one: without a token no host ever started here, and
 * an import must not create one (a refused import writes nothing).
 */
async function runningHost(dataDir: string) {
  const { resolveEndpoint, loadOrCreateToken } = await import('../../core/transport/endpoint.js');
  const endpoint = resolveEndpoint(dataDir);
  if (!existsSync(endpoint.tokenPath)) return {};
  return { host: { endpoint, token: await loadOrCreateToken(endpoint.tokenPath) } };
}
