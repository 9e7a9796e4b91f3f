import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real Secret Service for one test file: a private D-Bus session bus (dbus-daemon) with Debian's
 * gnome-keyring-daemon on it, its login keyring created and unlocked with a test password fed on
 * stdin. process.env.DBUS_SESSION_BUS_ADDRESS points at it, so @napi-rs/keyring in this process,
 * and every child process it starts, talks to it. Nothing here touches the user's own keychain.
 */
export const TEST_KEYRING_PASSWORD = 'baton-test-keyring';
const START_TIMEOUT_MS = 15_000;

export interface SecretService {
  address: string;
  /** Environment for child processes (and for secret-tool). */
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/** stdout then stderr (secret-tool prints attributes on stderr). */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(cmd, args, { env, timeout: START_TIMEOUT_MS }, (error, stdout, stderr) => (error ? reject(new Error(`${cmd} ${args.join(' ')}: ${error.message} ${stderr}`)) : resolve(stdout + stderr)));
    if (input !== undefined) child.stdin!.end(input);
  });
}

export async function startSecretService(): Promise<SecretService> {
  const home = await mkdtemp(join(tmpdir(), 'baton-keyring-'));
  const bus: ChildProcess = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('dbus-daemon printed no address')), START_TIMEOUT_MS);
    bus.once('error', reject);
    bus.stdout!.once('data', (b: Buffer) => {
      clearTimeout(timer);
      resolve(b.toString().trim().split('\n')[0]!);
    });
  });
  const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: address, HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_RUNTIME_DIR: home };
  const stop = async (): Promise<void> => {
    // The keyring daemon leaves when its bus goes away.
    bus.kill('SIGTERM');
    await rm(home, { recursive: true, force: true });
  };
  try {
    await run('gnome-keyring-daemon', ['--unlock', '--components=secrets'], env, TEST_KEYRING_PASSWORD);
    await run('gnome-keyring-daemon', ['--start', '--components=secrets'], env);
  } catch (error) {
    await stop();
    throw error;
  }
  process.env.DBUS_SESSION_BUS_ADDRESS = address;
  return { address, env, stop };
}

/** What the keyring holds for Baton, read with libsecret's own CLI (secret-tool), not through the binding under test. */
export async function keyringEntries(service: SecretService): Promise<string> {
  return run('secret-tool', ['search', '--all', 'service', 'baton'], service.env).catch((error: unknown) => String(error));
}
