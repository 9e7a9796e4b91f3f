import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { constants as osConstants, tmpdir } from 'node:os';
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
 *
 * Why the daemon dies at all: not reproduced here (1,600 keychain clients SIGKILLed mid-call, four
 * at a time, left it alive). The likely cause is an upstream gnome-keyring bug reported by others:
 * the daemon aborts (SIGABRT, "assertion 'client' failed" in gkd_secret_service_get_pkcs11_session)
 * when a client leaves the bus in the middle of its session negotiation, which the crash suites do
 * on purpose, hundreds of times. A client caught mid-call in that instant is answered "Message
 * recipient disconnected from message bus without replying". The activation script therefore
 * records every exit of the daemon (pid and status) and keeps its stderr, so a suite can tell "the
 * Secret Service itself vanished" from a product failure, say so, and show how the daemon ended.
 */
export const TEST_KEYRING_PASSWORD = 'baton-test-keyring';
const START_TIMEOUT_MS = 15_000;
const PASSWORD_FILE = 'keyring-password';
/** One line per daemon start, written by the activation script: the daemon's pid. */
const STARTS_FILE = 'keyring-starts';
/** One line per daemon exit, written by the activation script when the daemon ends: "pid status" (128+N: signal N). */
const EXITS_FILE = 'keyring-exits';
/** The daemon's stderr, every start appended. */
const LOG_FILE = 'keyring-daemon.log';
/** How long an exit record may lag behind the daemon's death (the activation shell writes it after `wait`). */
const EXIT_RECORD_LAG_MS = 3_000;

/** Daemon deaths one test file tolerates (each trial under one is redone); beyond this the harness itself is broken, and the test says so. */
export const MAX_DAEMON_DEATHS = 5;

/** How one keyring daemon ended. */
export interface DaemonExit {
  pid: number;
  /** The shell's `wait` status: the exit code, or 128 + the signal's number. */
  status: number;
}

export interface SecretService {
  address: string;
  /** Environment for child processes (and for secret-tool). */
  env: NodeJS.ProcessEnv;
  /** How many times the keyring daemon was started (1 unless it died and was re-activated). */
  daemonStarts(): Promise<number>;
  /** The pid of the keyring daemon started last. */
  daemonPid(): Promise<number>;
  /** Every daemon that ended while the service ran, oldest first. */
  daemonExits(): Promise<DaemonExit[]>;
  /**
   * Whether a daemon ended after `exitsBefore` exits had been recorded: waits up to
   * EXIT_RECORD_LAG_MS for the record, so call it only when a client saw the bus lose the daemon.
   */
  daemonExitedSince(exitsBefore: number): Promise<DaemonExit | null>;
  /** The daemon's stderr (the last `maxChars` of it): why it ended, in its own words. */
  daemonLog(maxChars?: number): Promise<string>;
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
  // Not exec: the shell stays to record how the daemon ended (it aborts on an upstream bug, above).
  await writeFile(
    script,
    [
      '#!/bin/sh',
      `gnome-keyring-daemon --foreground --components=secrets --unlock < '${join(home, PASSWORD_FILE)}' 2>> '${join(home, LOG_FILE)}' &`,
      'pid=$!',
      `echo $pid >> '${join(home, STARTS_FILE)}'`,
      'wait $pid',
      `echo "$pid $?" >> '${join(home, EXITS_FILE)}'`,
      '',
    ].join('\n'),
  );
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
  let address: string;
  try {
    address = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('dbus-daemon printed no address')), START_TIMEOUT_MS);
      bus.once('error', reject);
      bus.stdout!.once('data', (b: Buffer) => {
        clearTimeout(timer);
        resolve(b.toString().trim().split('\n')[0]!);
      });
    });
  } catch (error) {
    // A bus left running would hold its caller's process open (a build's warm-up) and its folder.
    bus.kill('SIGKILL');
    await rm(home, { recursive: true, force: true });
    throw error;
  }
  const env = { ...daemonEnv, DBUS_SESSION_BUS_ADDRESS: address };
  const stop = async (): Promise<void> => {
    // The keyring daemon leaves when its bus goes away.
    bus.kill('SIGTERM');
    // The activation shell may still be writing its exit record while the directory goes.
    await rm(home, { recursive: true, force: true, maxRetries: 3 });
  };
  const starts = async (): Promise<number[]> => (await readFile(join(home, STARTS_FILE), 'utf8').catch(() => '')).split('\n').filter(Boolean).map(Number);
  const daemonStarts = async (): Promise<number> => (await starts()).length;
  const daemonPid = async (): Promise<number> => (await starts()).at(-1) ?? 0;
  const daemonExits = async (): Promise<DaemonExit[]> => parseExits(await readFile(join(home, EXITS_FILE), 'utf8').catch(() => ''));
  const daemonExitedSince = async (exitsBefore: number): Promise<DaemonExit | null> => {
    for (const deadline = Date.now() + EXIT_RECORD_LAG_MS; ; await new Promise((r) => setTimeout(r, 50))) {
      const exits = await daemonExits();
      if (exits.length > exitsBefore) return exits[exitsBefore]!;
      if (Date.now() >= deadline) return null;
    }
  };
  const daemonLog = async (maxChars = 2_000): Promise<string> => (await readFile(join(home, LOG_FILE), 'utf8').catch(() => '')).slice(-maxChars);
  try {
    // The first request activates the daemon, which creates and unlocks the login keyring.
    await run('secret-tool', ['search', '--all', 'service', 'baton'], env);
    if ((await daemonStarts()) !== 1) throw new Error('the Secret Service was not started by its activation script');
  } catch (error) {
    await stop();
    throw error;
  }
  process.env.DBUS_SESSION_BUS_ADDRESS = address;
  return { address, env, daemonStarts, daemonPid, daemonExits, daemonExitedSince, daemonLog, stop };
}

/**
 * What a keychain client is answered when the daemon died in the middle of its call: the bus's own
 * NoReply error, whichever binding asked.
 */
export const DAEMON_VANISHED = 'Message recipient disconnected from message bus without replying';

/**
 * The Secret Service itself failed under a client, not the product: the client's error text says
 * the daemon left mid-call and a daemon exit was recorded after `exitsBefore`. Returns that exit.
 */
export async function daemonVanished(service: SecretService, errorText: string, exitsBefore: number): Promise<DaemonExit | null> {
  return saysDaemonVanished(errorText) ? service.daemonExitedSince(exitsBefore) : null;
}

/** The text is a keychain client's answer when the daemon died under it (DAEMON_VANISHED or DAEMON_SESSION_LOST). */
export function saysDaemonVanished(errorText: string): boolean {
  return errorText.includes(DAEMON_VANISHED) || errorText.includes(DAEMON_SESSION_LOST);
}

/**
 * What a client is answered when the daemon died between its calls: the daemon the bus started
 * again does not know the session the client opened with the one that died (a CI run saw
 * gnome-keyring abort in GLib and the next call get this). Counted only with a recorded exit.
 */
export const DAEMON_SESSION_LOST = 'DBus error: The session does not exist';

/** The exits file: one "pid status" a line; a line the shell is still writing is left for the next read. */
export function parseExits(text: string): DaemonExit[] {
  const exits: DaemonExit[] = [];
  for (const line of text.split('\n')) {
    const match = /^(\d+) (\d+)$/.exec(line);
    if (match) exits.push({ pid: Number(match[1]), status: Number(match[2]) });
  }
  return exits;
}

/** A daemon exit in words: "pid 123 killed by signal 6 (SIGABRT)" or "pid 123 exited with status 1". */
export function describeExit(exit: DaemonExit): string {
  if (exit.status <= 128) return `pid ${exit.pid} exited with status ${exit.status}`;
  const signal = exit.status - 128;
  const name = Object.entries(osConstants.signals).find(([, n]) => n === signal)?.[0];
  return `pid ${exit.pid} killed by signal ${signal}${name ? ` (${name})` : ''}`;
}

/** What the keyring holds for Baton, read with libsecret's own CLI (secret-tool), not through the binding under test. */
export async function keyringEntries(service: SecretService): Promise<string> {
  return run('secret-tool', ['search', '--all', 'service', 'baton'], service.env).catch((error: unknown) => String(error));
}
