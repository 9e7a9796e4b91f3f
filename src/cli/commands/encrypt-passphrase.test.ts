import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BROWSER_HOST_CAPABILITIES } from '../../core/host/capabilities.js';
import { startHostServices, type HostServices } from '../../core/host/host-services.js';
import { isEnvelope } from '../../core/store/at-rest/line-envelope.js';
import { passphraseSettings, unlockHostStore } from '../../core/store/at-rest/host-unlock.js';
import { KEY_METHOD, keyRequestMethod } from '../../core/store/at-rest/key-request.js';
import { REMOTE_METHODS } from '../../core/ssh/remote-gate.js';
import { removeDir, tempDataDir } from '../../core/tasks/test-support/endpoint.js';
import { grepMarker, markerWorkspace } from '../test-support/marker-workspace.js';
import { claude, claudeLogPath, writeLog } from '../../core/importers/test-fixtures/build-logs.js';
import { connectEndpoint } from '../../core/transport/client.js';
import { loadOrCreateToken, resolveEndpoint } from '../../core/transport/endpoint.js';

/**
 * Passphrase mode end to end with real processes: `baton encrypt --enable --passphrase`, a real
 * `baton serve` unlocked through BATON_PASSPHRASE_FD, real `baton handoff` / `list` / `show`
 * getting the key from it over the socket; with the host gone the CLI exits 6 and the data
 * directory is byte-for-byte unchanged. No secret store is reachable (DBus pointed at nothing).
 */
const CLI = join(import.meta.dirname, '..', 'run.ts');
const MARKER = 'WOMBAT-5521-MARKER';
const PASSPHRASE = 'correct horse battery staple';

let root: string;
let dataDir: string;
const children: ChildProcess[] = [];
let host: HostServices | undefined;

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, BATON_HOME: dataDir, XDG_RUNTIME_DIR: '', DISPLAY: '', WAYLAND_DISPLAY: '', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', ...extra };
}

function baton(args: string[], input?: string): Promise<{ code: number; json: Record<string, unknown>; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['--import', 'tsx', CLI, ...args], { env: env() }, (error, stdout, stderr) => {
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
      } catch {
        json = {};
      }
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, json, stdout, stderr });
    });
    child.stdin?.end(input ?? '');
  });
}

/** A real `baton serve`, its passphrase written to descriptor 3; resolves with its JSON line, or its exit code and stderr when it refuses. */
function serve(passphrase: string): Promise<{ child: ChildProcess; url?: string; code?: number; stderr: string }> {
  // The host's own HOME: the Claude Code sessions it lists (the first test writes some there).
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', '--json'], { env: env({ BATON_PASSPHRASE_FD: '3', HOME: join(root, 'home') }), stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  children.push(child);
  (child.stdio[3] as NodeJS.WritableStream).end(passphrase === '' ? '' : `${passphrase}\n`);
  let stdout = '';
  let stderr = '';
  return new Promise((resolve) => {
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      const line = stdout.split('\n').find((l) => l.includes('"url"'));
      if (line) resolve({ child, url: (JSON.parse(line) as { url: string }).url, stderr });
    });
    child.on('exit', (code) => resolve({ child, code: code ?? -1, stderr: stderr + stdout }));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** Every file and directory under `dir` with its bytes (directories and sockets by name only). */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const rel = relative(dir, join(e.parentPath, e.name));
    out.set(rel, e.isFile() ? (await readFile(join(dir, rel))).toString('base64') : e.isDirectory() ? 'dir' : 'other');
  }
  return out;
}

beforeEach(async () => {
  root = await tempDataDir('baton-cli-passphrase-');
  dataDir = join(root, 'data');
  await mkdir(dataDir, { mode: 0o700 });
});
afterEach(async () => {
  for (const child of children.splice(0)) await stop(child);
  await host?.close();
  host = undefined;
  await removeDir(root);
});

async function enable(): Promise<string> {
  const enabled = await baton(['encrypt', '--enable', '--passphrase', '--json'], `${PASSPHRASE}\n`);
  expect(enabled.json).toMatchObject({ ok: true, state: 'on', mode: 'passphrase', created: true });
  const settings = JSON.parse(await readFile(join(dataDir, 'encryption.json'), 'utf8')) as Record<string, unknown>;
  expect(settings).toMatchObject({ mode: 'passphrase', kdf: { name: 'scrypt', logN: 15 }, key: { keyId: enabled.json.keyId } });
  // Never the key or the passphrase on disk.
  expect(JSON.stringify(settings)).not.toContain(PASSPHRASE);
  return String(enabled.json.keyId);
}

describe('passphrase mode', () => {
  it('a handoff through a real unlocked baton serve leaves the marker nowhere on disk; with the host gone the CLI exits 6 and changes nothing', async () => {
    const keyId = await enable();
    // Enough marked Claude Code sessions for a hosted listing bigger than a frame: the host seals it
    // into its listings folder under a key of its own, and the CLI (no key of the store) opens it.
    for (let i = 0; i < 700; i++) {
      const id = `ffffffff-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const cwd = `/home/dev/p${i % 5}`;
      await writeLog(claudeLogPath(join(root, 'home'), cwd, id), [claude.user({ uuid: `${id}-u`, cwd, sessionId: id }, `${MARKER} candidate ${i} ${'z'.repeat(120)}`)]);
    }
    const served = await serve(PASSPHRASE);
    expect(served.url, served.stderr).toBeDefined();
    const work = await markerWorkspace(root, MARKER);
    const messages = join(root, 'session.jsonl');
    await writeFile(messages, [{ role: 'user', content: `Fix the ${MARKER} bug` }, { role: 'assistant', content: `Patched ${MARKER}.` }].map((m) => JSON.stringify(m)).join('\n') + '\n');
    const handoff = await baton(['handoff', '--cwd', work, '--title', `Title ${MARKER}`, '--messages', messages, '--no-launch', '--json']);
    expect(handoff.json, handoff.stderr).toMatchObject({ ok: true, category: 'accepted' });
    const sessionId = String(handoff.json.sessionId);
    expect((await baton(['show', sessionId, '--all', '--json'])).stdout).toContain(`Patched ${MARKER}.`);
    const listed = (await baton(['list', '--json'])).stdout;
    expect(listed).toContain(`Title ${MARKER}`);
    expect(listed).toContain(`${MARKER} candidate 699`);
    expect((await readdir(join(dataDir, 'listings'))).filter((n) => n.endsWith('.sealed')).length).toBeGreaterThan(0);
    const status = await baton(['encrypt', '--status', '--json']);
    expect(status.json).toMatchObject({ ok: true, state: 'on', mode: 'passphrase', keyId });
    const doctor = await baton(['doctor', '--json']);
    const check = (doctor.json.checks as { name: string; ok: boolean; detail: string }[]).find((c) => c.name === 'sessions encrypted at rest');
    expect(check).toMatchObject({ ok: true, detail: expect.stringMatching(/passphrase/) });
    await stop(served.child);

    expect(await grepMarker(dataDir, MARKER)).toEqual([]);
    const log = await readFile(join(dataDir, 'sessions', sessionId, 'messages.jsonl'), 'utf8');
    expect(log.split('\n').filter(Boolean).every((l) => isEnvelope(Buffer.from(l)))).toBe(true);

    // No host: every command that needs the store refuses with exit 6 before writing a byte.
    const before = await snapshot(dataDir);
    for (const args of [
      ['handoff', '--cwd', work, '--title', `Second ${MARKER}`, '--messages', messages, '--no-launch', '--json'],
      ['list', '--json'],
      ['show', sessionId, '--json'],
    ]) {
      const r = await baton(args);
      expect(r.code, `${args[0]}: ${r.stdout}${r.stderr}`).toBe(6);
      expect(r.stdout + r.stderr).toMatch(/baton serve/);
    }
    const locked = await baton(['encrypt', '--status', '--json']);
    expect(locked.code).toBe(6);
    expect(locked.json).toMatchObject({ state: 'on', mode: 'passphrase', locked: true, keyId });
    const lockedDoctor = await baton(['doctor', '--json']);
    const lockedCheck = (lockedDoctor.json.checks as { name: string; ok: boolean; detail: string; fix: string }[]).find((c) => c.name === 'sessions encrypted at rest');
    expect(lockedCheck).toMatchObject({ ok: false, detail: expect.stringMatching(/passphrase, and locked/), fix: expect.stringMatching(/baton serve/) });
    expect(await snapshot(dataDir)).toEqual(before);
    expect(await grepMarker(dataDir, MARKER)).toEqual([]);
  }, 180_000);

  it('a restarted host needs the passphrase again: a wrong or missing one is refused and nothing is written', async () => {
    await enable();
    const before = await snapshot(dataDir);
    const wrong = await serve('not the passphrase at all');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/Wrong passphrase/);
    // Turning it on again (a resume) with another passphrase is refused the same way.
    const reenable = await baton(['encrypt', '--enable', '--passphrase', '--json'], 'another passphrase entirely\n');
    expect(reenable.code).toBe(1);
    expect(reenable.json).toMatchObject({ ok: false, code: 'KEY_UNAVAILABLE', message: expect.stringMatching(/Wrong passphrase/) });
    const none = await serve('');
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/no passphrase/);
    expect(await snapshot(dataDir)).toEqual(before);
    const right = await serve(PASSPHRASE);
    expect(right.url, right.stderr).toBeDefined();
    expect((await baton(['list', '--json'])).code).toBe(0);
    await stop(right.child);
    const again = await serve('wrong again, after a restart');
    expect(again.code).toBe(1);
  }, 180_000);

  it(`${KEY_METHOD}: hundreds of malformed key requests are refused without the key and the host keeps answering`, async () => {
    await enable();
    const settings = (await passphraseSettings(dataDir))!;
    const keyId = await unlockHostStore(dataDir, settings, Buffer.from(PASSPHRASE));
    host = await startHostServices({ dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
    const endpoint = resolveEndpoint(dataDir, {}, process.platform);
    const client = await connectEndpoint({ endpoint, token: await loadOrCreateToken(endpoint.tokenPath) });
    const corpus: unknown[] = [undefined, null, 0, 1, true, 'x', [], {}, [keyId], { keyId }, { version: 1 }, { version: '1', keyId }, { version: 1.5, keyId }, { version: 0, keyId }, { version: -1, keyId }];
    corpus.push({ version: 1, keyId: keyId.toUpperCase() }, { version: 1, keyId: `${keyId}0` }, { version: 1, keyId: keyId.slice(1) }, { version: 1, keyId, extra: 1 }, { version: 1, keyId: null }, { version: 1, keyId: 123 });
    corpus.push({ version: 1, keyId: '0'.repeat(16) }, { version: 2, keyId }, { version: 1e6, keyId }, { version: 1, keyId: 'x'.repeat(100_000) }, { version: 1, keyId: { toString: 'a' } });
    for (let i = 0; i < 300; i += 1) {
      // Random mutations: wrong ids, wrong types, nested junk.
      const pick = i % 6;
      corpus.push(
        pick === 0 ? { version: 1, keyId: Math.random().toString(16).slice(2, 18).padEnd(16, 'g') }
        : pick === 1 ? { version: i + 2, keyId: i % 2 ? keyId : undefined }
        : pick === 2 ? { version: 1, keyId: [keyId] }
        : pick === 3 ? { version: 1, keyId: keyId.replace(/./, String.fromCharCode(103 + (i % 19))) /* g…y: never hex */ }
        : pick === 4 ? Array.from({ length: i % 20 }, () => ({ keyId }))
        : { v: 1, key_id: keyId, i },
      );
    }
    let refused = 0;
    for (const params of corpus) {
      const answer = await client.request(KEY_METHOD, params);
      expect(answer.ok, JSON.stringify(params)?.slice(0, 80)).toBe(false);
      expect(JSON.stringify(answer)).not.toMatch(/"key":/);
      refused += 1;
    }
    expect(refused).toBeGreaterThan(300);
    // The host is alive, and a well-formed request still gets the key.
    const good = await client.request(KEY_METHOD, { version: 1, keyId });
    expect(good).toMatchObject({ ok: true, version: 1, keyId });
    client.close();
    // A remote box (a `baton ssh` session credential) never gets it, even well-formed: the handler refuses, and the remote gate does not route it.
    const remote = await keyRequestMethod(dataDir)({ id: 'r1', method: KEY_METHOD, params: { version: 1, keyId } }, { signal: new AbortController().signal, credential: { id: 'c1', kind: 'ssh', host: 'devbox' } });
    expect(remote).toMatchObject({ ok: false, code: 'ACCESS_DENIED' });
    expect(REMOTE_METHODS.has(KEY_METHOD)).toBe(false);
  }, 120_000);
});
