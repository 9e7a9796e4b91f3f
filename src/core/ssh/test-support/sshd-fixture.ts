import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A real OpenSSH server on a high loopback port, for the `baton ssh` tests (issue 22). The
 * "remote box" is a second local Unix user with its own HOME (and so its own Baton data dir);
 * a third user stands for anyone else on that box. Needs root (useradd, chown, sshd) and
 * Debian's openssh-server (`.ci/run` installs it). Host key, client key, authorized_keys and
 * sshd_config are all temporary; the system sshd service is never touched.
 */
export const SSHD = '/usr/sbin/sshd';
const SSHD_START_TIMEOUT_MS = 10_000;

export interface SshUser {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

export interface SshdFixture {
  /** user@127.0.0.1 of the remote user. */
  destination: string;
  port: number;
  /** ssh options that reach this server with the temporary keys, and nothing from ~/.ssh. */
  sshArgs: string[];
  remote: SshUser;
  /** Another user of the remote box, who must not get through the forwarded socket. */
  other: SshUser;
  /** sshd's own log so far (stderr), for failure messages. */
  log(): string;
  dispose(): Promise<void>;
}

function createUser(prefix: string): SshUser {
  const name = `${prefix}${randomBytes(3).toString('hex')}`;
  // Password '*': no password login, but not "locked" ('!'), which sshd without PAM refuses even for keys.
  execFileSync('useradd', ['--create-home', '--shell', '/bin/sh', '--password', '*', name]);
  const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
  return { name, uid, gid, home: `/home/${name}` };
}

function removeUser(user: SshUser): void {
  try {
    execFileSync('userdel', ['--force', '--remove', user.name], { stdio: 'ignore' });
  } catch {
    // already gone, or a process of it still runs: its home is removed below either way
  }
  rmSync(user.home, { recursive: true, force: true });
}

/** A port nothing listens on now (the kernel's pick, released at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + SSHD_START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`sshd exited with ${child.exitCode}: ${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`sshd did not listen on 127.0.0.1:${port} within ${SSHD_START_TIMEOUT_MS} ms: ${log()}`);
}

export async function startSshd(): Promise<SshdFixture> {
  if (!existsSync(SSHD)) throw new Error(`${SSHD} is missing: apt-get install openssh-server (.ci/run does)`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'baton-sshd-'));
  const remote = createUser('batonr');
  const other = createUser('batonx');
  let sshd: ChildProcess | null = null;
  try {
    for (const name of ['host_key', 'client_key']) execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, name)]);
    const sshDir = path.join(remote.home, '.ssh');
    mkdirSync(sshDir, { mode: 0o700 });
    writeFileSync(path.join(sshDir, 'authorized_keys'), readFileSync(path.join(dir, 'client_key.pub')), { mode: 0o600 });
    chownSync(sshDir, remote.uid, remote.gid);
    chownSync(path.join(sshDir, 'authorized_keys'), remote.uid, remote.gid);
    // Privilege separation needs this directory (the system service would create it).
    mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
    const port = await freePort();
    const config = path.join(dir, 'sshd_config');
    writeFileSync(
      config,
      [
        `Port ${port}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${path.join(dir, 'host_key')}`,
        `PidFile ${path.join(dir, 'sshd.pid')}`,
        'AuthorizedKeysFile .ssh/authorized_keys',
        'PubkeyAuthentication yes',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'UsePAM no',
        'PermitRootLogin no',
        `AllowUsers ${remote.name}`,
        'AllowStreamLocalForwarding yes',
        'StreamLocalBindUnlink yes',
        'AllowTcpForwarding yes',
        'X11Forwarding no',
        'LogLevel VERBOSE',
        '',
      ].join('\n'),
    );
    chmodSync(config, 0o600);
    let log = '';
    sshd = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    sshd.stderr!.on('data', (chunk: Buffer) => {
      if (log.length < 64 * 1024) log += chunk.toString('utf8');
    });
    await waitForPort(port, sshd, () => log);
    const knownHosts = path.join(dir, 'known_hosts');
    writeFileSync(knownHosts, `[127.0.0.1]:${port} ${readFileSync(path.join(dir, 'host_key.pub'), 'utf8')}`);
    const sshArgs = ['-F', '/dev/null', '-p', String(port), '-i', path.join(dir, 'client_key'), '-o', 'IdentitiesOnly=yes', '-o', `UserKnownHostsFile=${knownHosts}`, '-o', 'StrictHostKeyChecking=yes', '-o', 'LogLevel=ERROR'];
    const running = sshd;
    return {
      destination: `${remote.name}@127.0.0.1`,
      port,
      sshArgs,
      remote,
      other,
      log: () => log,
      async dispose() {
        if (running.exitCode === null) {
          const exited = new Promise((r) => running.once('exit', r));
          running.kill('SIGTERM');
          await exited;
        }
        removeUser(remote);
        removeUser(other);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    sshd?.kill('SIGKILL');
    removeUser(remote);
    removeUser(other);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
