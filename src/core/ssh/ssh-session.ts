import { spawn } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import { shellQuote } from '../../shared/agents.js';
import { connectEndpoint } from '../transport/client.js';
import { MAX_SOCKET_PATH_BYTES } from '../transport/endpoint.js';
import { CURRENT_LINK, FORWARDED_SOCKET_NAME, FORWARDED_TOKEN_NAME, REMOTE_BASE_DIR, SSH_ENDPOINT_ENV } from '../transport/forwarded-endpoint.js';
import type { EndpointClient, EndpointInfo } from '../transport/types.js';

/**
 * `baton ssh <host> [ssh args…] [-- command]` (issue 22): an ssh session whose remote end can
 * hand off to the desktop in front of you.
 *
 *  1. Ask the desktop (long-lived token, local socket) for a one-time credential, and hold it with
 *     a request that stays open for the life of the ssh child: when this process ends, however it
 *     ends, the connection closes and the desktop revokes the credential.
 *  2. One short ssh run makes a private directory on the remote (`~/.baton-ssh/<id>`, 0700) and
 *     writes the credential into `token` (0600) from stdin: it never appears in an argument list.
 *  3. The interactive ssh forwards the desktop's socket into that directory (`-R dir/sock:local`),
 *     exports BATON_SSH_ENDPOINT=dir for the remote shell, and removes the directory on the way out.
 * The desktop's own token never leaves the laptop.
 */
/** Longest a remote's answer to the set-up step may be (it prints one path). */
const SETUP_OUTPUT_MAX_BYTES = 4096;
/** Longest the hold may stay open: setTimeout's ceiling (~24.8 days). An ssh session longer than that needs a new baton ssh. */
const HOLD_MAX_MS = 2 ** 31 - 1;

export interface SshSessionOptions {
  /** The laptop's desktop endpoint and its long-lived token. */
  endpoint: EndpointInfo;
  token: Buffer;
  /** The ssh destination (`host`, `user@host`, an alias of ~/.ssh/config). */
  host: string;
  /** Options passed to every ssh run, before the destination (-p, -i, -o …). */
  sshArgs: readonly string[];
  /** What to run on the remote instead of a login shell (words joined by spaces, as ssh does). */
  command: readonly string[];
  /** Allocate a terminal (-t): the default when this process has one and runs a shell. */
  tty: boolean;
  sshBinary?: string;
  /** Told what is happening (to stderr in the CLI). */
  log?: (line: string) => void;
}

export class SshSessionError extends Error {
  constructor(readonly code: 'NO_DESKTOP' | 'CREDENTIAL' | 'REMOTE_SETUP' | 'SSH', message: string) {
    super(message);
  }
}

/** The set-up script: private base and session directories, the token from stdin, the directory's path on stdout. */
export function remoteSetupScript(credentialId: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(credentialId)) throw new SshSessionError('CREDENTIAL', `unexpected credential id ${credentialId}`);
  return [
    'umask 077',
    `b="$HOME/${REMOTE_BASE_DIR}"`,
    'mkdir -p "$b" && chmod 700 "$b"',
    `d="$b/${credentialId}"`,
    'mkdir "$d" && chmod 700 "$d"',
    `cat > "$d/${FORWARDED_TOKEN_NAME}"`,
    `chmod 600 "$d/${FORWARDED_TOKEN_NAME}"`,
    `printf '%s\\n' "$d"`,
  ].join(' && ');
}

/** The interactive session's remote command: the variable, the user's command or login shell, then clean-up. */
export function remoteSessionScript(dir: string, command: readonly string[]): string {
  const run = command.length > 0 ? command.join(' ') : '"${SHELL:-/bin/sh}" -l';
  // ~/.baton-ssh/current: for processes that did not inherit the variable; removed only if still ours.
  const link = `"$HOME/${REMOTE_BASE_DIR}/${CURRENT_LINK}"`;
  return [
    `${SSH_ENDPOINT_ENV}=${shellQuote(dir)}; export ${SSH_ENDPOINT_ENV}`,
    `ln -sfn ${shellQuote(dir)} ${link} 2>/dev/null`,
    `${run}; s=$?`,
    `[ "$(readlink ${link} 2>/dev/null)" = ${shellQuote(dir)} ] && rm -f ${link}`,
    `rm -rf ${shellQuote(dir)}; exit $s`,
  ].join('; ');
}

function runCaptured(binary: string, args: string[], input: Buffer): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < SETUP_OUTPUT_MAX_BYTES) stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < SETUP_OUTPUT_MAX_BYTES) stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => undefined); // ssh may exit before reading (auth failure): its exit code says why
    child.stdin.end(input);
  });
}

/** Runs the whole session; resolves with ssh's exit code once the credential is revoked. */
export async function runSshSession(options: SshSessionOptions): Promise<number> {
  const ssh = options.sshBinary ?? 'ssh';
  const log = options.log ?? (() => undefined);
  let client: EndpointClient;
  let sshRunning = true;
  try {
    client = await connectEndpoint({ endpoint: options.endpoint, token: options.token });
  } catch (error) {
    throw new SshSessionError('NO_DESKTOP', `the Baton desktop is not running on this machine (${(error as Error).message}); start it (npm start or baton serve), then run baton ssh again`);
  }
  try {
    const opened = await client.request('ssh.credential.open', { host: options.host });
    if (!opened.ok || typeof opened.credentialId !== 'string' || typeof opened.token !== 'string') {
      throw new SshSessionError('CREDENTIAL', `the desktop gave no credential: ${opened.ok ? 'malformed answer' : `${String(opened.code)}: ${String(opened.message)}`}`);
    }
    const credentialId = opened.credentialId;
    // The hold ends with our connection. If it ends while ssh still runs, the desktop went away
    // (a restart forgets every credential): say so instead of letting remote commands fail silently.
    void client
      .request('ssh.credential.hold', { credentialId }, { timeoutMs: HOLD_MAX_MS })
      .catch(() => undefined)
      .then(() => {
        if (sshRunning) log(`baton: the desktop ended the credential for ${options.host} (did it restart?); run baton ssh again to hand off from there`);
      });

    // No BatchMode: a password or passphrase prompt reads the terminal, not the token on stdin.
    const setup = await runCaptured(ssh, [...options.sshArgs, '-T', options.host, remoteSetupScript(credentialId)], Buffer.from(opened.token, 'base64'));
    const dir = setup.stdout.trim().split('\n').at(-1) ?? '';
    if (setup.code !== 0 || !dir.startsWith('/')) {
      throw new SshSessionError('REMOTE_SETUP', `could not prepare ${options.host} (ssh exit ${String(setup.code)}): ${setup.stderr.trim() || setup.stdout.trim() || 'no output'}`);
    }
    const remoteSocket = `${dir}/${FORWARDED_SOCKET_NAME}`;
    if (Buffer.byteLength(remoteSocket) > MAX_SOCKET_PATH_BYTES) {
      throw new SshSessionError('REMOTE_SETUP', `the remote socket path ${remoteSocket} is longer than ${MAX_SOCKET_PATH_BYTES} bytes; use a remote account with a shorter $HOME`);
    }
    log(`baton: ${options.host} can hand off to this desktop (${SSH_ENDPOINT_ENV}=${dir}); the credential ends with this ssh session`);
    const args = [
      ...options.sshArgs,
      '-o', 'ExitOnForwardFailure=yes',
      '-R', `${remoteSocket}:${options.endpoint.address}`,
      ...(options.tty ? ['-t'] : []),
      options.host,
      remoteSessionScript(dir, options.command),
    ];
    return await new Promise<number>((resolve, reject) => {
      const child = spawn(ssh, args, { stdio: 'inherit' });
      child.on('error', (error) => reject(new SshSessionError('SSH', `could not run ${ssh}: ${error.message}`)));
      // Killed by a signal: the shell's convention, 128 + its number.
      child.on('close', (code, signal) => {
        sshRunning = false;
        resolve(code ?? 128 + (signal ? (osConstants.signals[signal] ?? 0) : 0));
      });
    });
  } finally {
    sshRunning = false;
    client.close(); // the hold ends with the connection: the desktop revokes the credential
  }
}
