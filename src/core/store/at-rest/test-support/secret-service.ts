import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real Secret Service for one test file: a private D-Bus session bus (dbus-daemon, with a config
 * of its own) on which Debian's gnome-keyring-daemon is started by D-Bus activation, its login
 * keyring created and unlocked with a test password. process.env.DBUS_SESSION_BUS_ADDRESS points
 * at the bus, so @napi-rs/keyring in this process, and every child process it starts, talks to it.
 * Nothing here touches the user's own keychain.
 *
 * Why activation through our own service file: when gnome-keyring-daemon dies (it has, under
 * crash trials that SIGKILL its clients mid-call), the next request re-activates it. With the
 * system's service file the new daemon inherited the bus's environment (the real HOME) and a
 * locked or empty keyring, and answered "not found" for keys that exist. Ours starts it with
 * this service's HOME and unlocks the same login keyring from the password file, every time.
 */
export const TEST_KEYRING_PASSWORD = 'baton-test-keyring';
const START_TIMEOUT_MS = 15_000;
const PASSWORD_FILE = 'keyring-password';
/** One line per daemon start, written by the activation script: the daemon's pid (exec keeps it). */
const STARTS_FILE = 'keyring-starts';

export interface SecretService {
  address: string;
  /** Environment for child processes (and for secret-tool). */
  env: NodeJS.ProcessEnv;
  /** How many times the keyring daemon was started (1 unless it died and was re-activated). */
  daemonStarts(): Promise<number>;
  /** The pid of the keyring daemon started last. */
  daemonPid(): Promise<number>;
  stop(): Promise<void>;
}

/** stdout then stderr (secret-tool prints attributes on stderr). */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(cmd, args, { env, timeout: START_TIMEOUT_MS }, (error, stdout, stderr) => (error ? reject(new Error(`${cmd} ${args.join(' ')}: ${error.message} ${stderr}`)) : resolve(stdout + stderr)));
    if (input !== undefined) child.stdin!.end(input);
  });
}

/** The bus's configuration: only our service directory, so only our activation script can start the Secret Service. */
function busConfig(home: string): string {
  return `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=${home}</listen>
  <auth>EXTERNAL</auth>
  <servicedir>${join(home, 'services')}</servicedir>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
`;
}

async function writeActivation(home: string): Promise<void> {
  await writeFile(join(home, PASSWORD_FILE), TEST_KEYRING_PASSWORD, { mode: 0o600 });
  const script = join(home, 'start-keyring.sh');
  // --unlock reads the password on stdin and creates the login keyring when it does not exist yet.
  await writeFile(script, `#!/bin/sh\necho $$ >> '${join(home, STARTS_FILE)}'\nexec gnome-keyring-daemon --foreground --components=secrets --unlock < '${join(home, PASSWORD_FILE)}'\n`);
  await chmod(script, 0o700);
  await mkdir(join(home, 'services'));
  await writeFile(join(home, 'services', 'org.freedesktop.secrets.service'), `[D-BUS Service]\nName=org.freedesktop.secrets\nExec=${script}\n`);
  await writeFile(join(home, 'bus.conf'), busConfig(home));
}

export async function startSecretService(): Promise<SecretService> {
  const home = await mkdtemp(join(tmpdir(), 'baton-keyring-'));
  await writeActivation(home);
  const daemonEnv: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_RUNTIME_DIR: home };
  delete daemonEnv.DBUS_SESSION_BUS_ADDRESS;
  // The bus passes its own environment to what it activates: this service's HOME, not the person's.
  const bus: ChildProcess = spawn('dbus-daemon', [`--config-file=${join(home, 'bus.conf')}`, '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'ignore'], env: daemonEnv });
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('dbus-daemon printed no address')), START_TIMEOUT_MS);
    bus.once('error', reject);
    bus.stdout!.once('data', (b: Buffer) => {
      clearTimeout(timer);
      resolve(b.toString().trim().split('\n')[0]!);
    });
  });
  const env = { ...daemonEnv, DBUS_SESSION_BUS_ADDRESS: address };
  const stop = async (): Promise<void> => {
    // The keyring daemon leaves when its bus goes away.
    bus.kill('SIGTERM');
    await rm(home, { recursive: true, force: true });
  };
  const starts = async (): Promise<number[]> => (await readFile(join(home, STARTS_FILE), 'utf8').catch(() => '')).split('\n').filter(Boolean).map(Number);
  const daemonStarts = async (): Promise<number> => (await starts()).length;
  const daemonPid = async (): Promise<number> => (await starts()).at(-1) ?? 0;
  try {
    // The first request activates the daemon, which creates and unlocks the login keyring.
    await run('secret-tool', ['search', '--all', 'service', 'baton'], env);
    if ((await daemonStarts()) !== 1) throw new Error('the Secret Service was not started by its activation script');
  } catch (error) {
    await stop();
    throw error;
  }
  process.env.DBUS_SESSION_BUS_ADDRESS = address;
  return { address, env, daemonStarts, daemonPid, stop };
}

/** What the keyring holds for Baton, read with libsecret's own CLI (secret-tool), not through the binding under test. */
export async function keyringEntries(service: SecretService): Promise<string> {
  return run('secret-tool', ['search', '--all', 'service', 'baton'], service.env).catch((error: unknown) => String(error));
}
