import { execFile } from 'node:child_process';
import { checkCandidateWatch } from './host/candidate-doctor.js';
import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { openStore } from './store/index.js';
import type { Damage } from '../shared/session.js';
import { connectEndpoint } from './transport/client.js';
import { loadOrCreateToken, resolveEndpoint, ensureEndpointDir } from './transport/endpoint.js';
import { writeFileAtomic } from './fs/index.js';
import { onPath } from './handoff/launcher.js';
import { checkEncryption } from './store/at-rest/doctor-check.js';

export interface DoctorCheck {
  name: string;
  ok: boolean;
  /** What was found. */
  detail: string;
  /** What to do when it is not ok. */
  fix?: string;
  /** The sessions check: every session with damage set aside, and where the bytes are kept. */
  sessions?: DamagedSession[];
}

export interface DamagedSession {
  id: string;
  title: string;
  archived: boolean;
  damage: Damage[];
}

/** How long the endpoint check waits for the handshake. */
const DOCTOR_CONNECT_TIMEOUT_MS = 2_000;

/**
 * `baton doctor`: each thing a handoff depends on, checked for real, each failure with its fix.
 * Platform notes: the protocol registration is read with xdg-mime on Linux and reg.exe on
 * Windows; macOS offers no command-line query, so it is reported as not checked.
 */
export async function runDoctor(dataDir: string, env: NodeJS.ProcessEnv = process.env, platform = process.platform): Promise<DoctorCheck[]> {
  const { relayDoctorChecks } = await import('./relay/doctor-checks.js');
  return [
    await checkStore(dataDir),
    await checkSessions(dataDir),
    await checkEncryption(dataDir),
    await checkEndpoint(dataDir),
    await checkCandidateWatch(dataDir),
    checkDisplay(env, platform),
    await checkProtocol(env, platform),
    checkDesktopRuntime(),
    ...(await relayDoctorChecks(dataDir)),
  ];
}

/**
 * Reads every session's log once (a read records any damage it finds, see the store's
 * readMessages) and lists the sessions with damage set aside. Nothing is cut or repaired here.
 */
async function checkSessions(dataDir: string): Promise<DoctorCheck> {
  const name = 'sessions readable, no damaged logs';
  let store;
  try {
    store = await openStore(dataDir);
  } catch (error) {
    return { name, ok: false, detail: `the store did not open: ${(error as Error).message}`, fix: 'See the store check above.' };
  }
  try {
    const rows = await store.list({ includeArchived: true });
    // Session directories the index could not take (no readable session.json nor revision) count too.
    const ids = new Set(rows.map((r) => r.id));
    for (const sub of ['sessions', 'archived']) {
      for (const name of await readdir(join(dataDir, sub)).catch(() => [] as string[])) if (!name.startsWith('.')) ids.add(name);
    }
    const damaged: DamagedSession[] = [];
    const unreadable: string[] = [];
    let checked = 0;
    for (const id of ids) {
      checked += 1;
      try {
        await store.readMessages(id);
        const doc = await store.getSession(id);
        if ((doc.damaged?.length ?? 0) > 0) damaged.push({ id: doc.id, title: doc.title, archived: doc.archived, damage: doc.damaged! });
      } catch (error) {
        // A directory without session.json is not a session (approvals of a session Baton does not hold).
        if ((error as { code?: string }).code === 'NOT_FOUND' && !rows.some((r) => r.id === id)) {
          checked -= 1;
          continue;
        }
        unreadable.push(`${id}: ${(error as Error).message}`);
      }
    }
    if (damaged.length === 0 && unreadable.length === 0) return { name, ok: true, detail: `${checked} ${checked === 1 ? 'session' : 'sessions'}, none damaged`, sessions: [] };
    const lines = [
      ...damaged.map((d) => `${d.id} (${d.title}): ${d.damage.map((x) => `${x.file ?? 'messages.jsonl'}${x.start !== undefined ? ` bytes ${x.start}..${x.end}` : ''} kept in ${join(store.sessionDir(d.id), x.sideFile)}`).join('; ')}`),
      ...unreadable,
    ];
    return {
      name,
      ok: false,
      detail: `${damaged.length} damaged, ${unreadable.length} unreadable of ${checked}:\n    ${lines.join('\n    ')}`,
      fix: 'Nothing was cut: the damaged bytes are kept in the side files named above, and every other message is intact. Inspect one with: baton show ID',
      sessions: damaged,
    };
  } finally {
    await store.close();
  }
}

async function checkStore(dataDir: string): Promise<DoctorCheck> {
  const name = 'store writable, private modes';
  try {
    const store = await openStore(dataDir);
    const probe = join(dataDir, `.doctor-probe-${process.pid}`);
    await writeFileAtomic(probe, 'ok', { mode: 0o600 });
    await rm(probe, { force: true });
    await store.close();
    return { name, ok: true, detail: `${dataDir} (0700 directories, 0600 files)` };
  } catch (error) {
    return { name, ok: false, detail: `${(error as Error).message}`, fix: `Check the owner and modes of ${dataDir} (chmod 700), free disk space, or set BATON_HOME to a private directory.` };
  }
}

async function checkEndpoint(dataDir: string): Promise<DoctorCheck> {
  const name = 'desktop endpoint reachable and authenticated';
  const endpoint = resolveEndpoint(dataDir);
  try {
    await ensureEndpointDir(endpoint.dir);
    const token = await loadOrCreateToken(endpoint.tokenPath);
    const client = await connectEndpoint({ endpoint, token, timeoutMs: DOCTOR_CONNECT_TIMEOUT_MS });
    const answer = await client.request('ping', {}, { timeoutMs: DOCTOR_CONNECT_TIMEOUT_MS });
    client.close();
    return { name, ok: answer.ok === true, detail: `${endpoint.address} answered ping` };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const fix =
      code === 'NO_TARGET'
        ? 'Start Baton (npm start, or baton serve); handoffs are saved either way and can be re-offered with baton handoff --session ID.'
        : code === 'UNAUTHENTICATED'
          ? `The running app uses another token: restart it, or check that BATON_HOME is the same for the CLI and the app (token: ${endpoint.tokenPath}).`
          : `Check ${endpoint.dir} (owner and 0700 mode).`;
    return { name, ok: false, detail: `${code ?? 'ERROR'}: ${(error as Error).message}`, fix };
  }
}

function checkDisplay(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): DoctorCheck {
  const name = 'display for the desktop app';
  if (platform !== 'linux') return { name, ok: true, detail: `${platform} always has one` };
  const display = env.WAYLAND_DISPLAY || env.DISPLAY;
  return display
    ? { name, ok: true, detail: `DISPLAY/WAYLAND_DISPLAY = ${display}` }
    : { name, ok: false, detail: 'DISPLAY and WAYLAND_DISPLAY are unset', fix: 'On a headless machine use the browser host: baton serve, then open the printed URL.' };
}

async function checkProtocol(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): Promise<DoctorCheck> {
  const name = 'baton:// links open Baton';
  if (platform === 'darwin') return { name, ok: true, detail: 'not checked on macOS (registered by the app bundle on first launch)' };
  const query =
    platform === 'win32'
      ? { command: 'reg.exe', args: ['query', 'HKCU\\Software\\Classes\\baton\\shell\\open\\command'] }
      : onPath('xdg-mime', env)
        ? { command: 'xdg-mime', args: ['query', 'default', 'x-scheme-handler/baton'] }
        : null;
  if (!query) return { name, ok: false, detail: 'xdg-mime is not installed', fix: 'Install xdg-utils, then start the Baton app once so it registers baton://.' };
  const output = await new Promise<string>((resolve) => execFile(query.command, query.args, { timeout: 5_000 }, (error, stdout) => resolve(error ? '' : String(stdout).trim())));
  return output
    ? { name, ok: true, detail: output.split('\n')[0]! }
    : { name, ok: false, detail: 'no handler registered for baton://', fix: 'Run baton doctor --fix (Linux: registers this build), start the Baton desktop app once (it registers baton://), or install the packaged app.' };
}

function checkDesktopRuntime(): DoctorCheck {
  const name = 'desktop app installed';
  let electronDir: string | null = null;
  try {
    electronDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    electronDir = null;
  }
  if (electronDir && existsSync(join(electronDir, 'dist'))) return { name, ok: true, detail: `Electron runtime at ${join(electronDir, 'dist')}` };
  return {
    name,
    ok: false,
    detail: 'no Electron runtime found beside this checkout',
    fix: 'On a machine with internet, npm start fetches it; otherwise use the browser host (baton serve).',
  };
}
