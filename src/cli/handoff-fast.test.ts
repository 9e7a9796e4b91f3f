import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { chmod, copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { BROWSER_HOST_CAPABILITIES } from '../core/host/capabilities.js';
import { startHostServices, type HostServices } from '../core/host/host-services.js';
import { HOSTED_HANDOFF_MAX_BYTES, HOSTED_HANDOFF_METHOD, HOSTED_HANDOFF_PART_BYTES } from '../core/handoff/hosted-handoff-request.js';
import { connectEndpoint } from '../core/transport/client.js';
import { ensureEndpointDir, loadOrCreateToken, resolveEndpoint } from '../core/transport/endpoint.js';
import { startEndpointServer } from '../core/transport/server.js';
import { FileSessionStore } from '../core/store/session-store.js';
import { StoreError } from '../core/store/errors.js';
import { SSH_ENDPOINT_ENV } from '../core/transport/forwarded-endpoint.js';
import { newId } from '../shared/ids.js';
import { fastHandoffFlags, tryFastHandoff } from './handoff-fast.js';
import { main as fullHandoff } from './handoff-main.js';

/**
 * The hosted handoff (issue 20) with a real host (startHostServices, as `baton serve` runs it) in
 * this process and a real socket: the small bundle's entry is taken when a host runs and the
 * request is one it handles, its output and exit code are the full CLI's for the same input, and
 * it declines (the full CLI runs) otherwise. A request sent twice lands once.
 */
let root: string;
let dataDir: string;
let work: string;
let host: HostServices;
const saved = { runtime: process.env.XDG_RUNTIME_DIR, home: process.env.BATON_HOME, ssh: process.env[SSH_ENDPOINT_ENV] };

beforeAll(() => {
  // The socket in <dataDir>/run, for the host and for both CLIs.
  delete process.env.XDG_RUNTIME_DIR;
  delete process.env[SSH_ENDPOINT_ENV];
});
afterAll(() => {
  for (const [name, value] of [['XDG_RUNTIME_DIR', saved.runtime], ['BATON_HOME', saved.home], [SSH_ENDPOINT_ENV, saved.ssh]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-hosted-'));
  dataDir = join(root, 'data');
  work = join(root, 'work');
  await mkdir(work);
  process.env.BATON_HOME = dataDir;
  host = await startHostServices({ dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
});
afterEach(async () => {
  await host.close().catch(() => undefined);
  await rm(root, { recursive: true, force: true });
});

async function messagesFile(count: number, name = 'm.jsonl', pad = 0): Promise<string> {
  const file = join(root, name);
  const lines = Array.from({ length: count }, (_, i) => JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: `Message ${i} ${'x'.repeat(pad)}` }));
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

const env = () => ({ ...process.env, BATON_HOME: dataDir });
const run = promisify(execFile);
const argvOf = (...args: string[]) => ['node', 'baton', 'handoff', ...args];
const sessions = async () => (await readdir(join(dataDir, 'sessions')).catch(() => [] as string[])).filter((n) => !n.startsWith('.'));

/** What a run wrote to stdout and stderr, and its exit code. */
async function captured(run: () => Promise<number | undefined>): Promise<{ stdout: string; stderr: string; code: number | undefined }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  try {
    return { code: await run(), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

async function hosted(argv: string[]) {
  return captured(async () => {
    const result = await tryFastHandoff(argv, env());
    if (!('exitCode' in result)) throw new Error(`declined: ${result.fallback.join(' ')}`);
    return result.exitCode;
  });
}

async function full(argv: string[]) {
  return captured(async () => {
    process.exitCode = 0;
    await fullHandoff(argv);
    const code = Number(process.exitCode ?? 0);
    process.exitCode = 0;
    return code;
  });
}

/** Ids, paths and durations differ from one handoff to the next; everything else must not. */
function comparable(text: string): string {
  return text
    .replace(/s-[a-z0-9]+-[0-9a-f]{16}/g, 'SESSION')
    .replace(/h[a-z0-9]+-[0-9a-f]{16}/g, 'HANDOFF')
    .replace(/"durationsMs":\{[^}]*\}/g, '"durationsMs":{}')
    .replace(/"epoch":\d+/g, '"epoch":N');
}

describe('the hosted handoff (handoff.land)', () => {
  it('is taken with a host running: the host lands and takes the session, and --json is the full CLI\'s', async () => {
    const file = await messagesFile(150);
    const argv = argvOf('--cwd', work, '--title', 'hosted', '--messages', file, '--no-launch', '--json');
    const viaHost = await hosted(argv);
    expect(viaHost.code).toBe(0);
    const answer = JSON.parse(viaHost.stdout);
    expect(answer).toMatchObject({ version: 1, command: 'handoff', ok: true, category: 'accepted', exitCode: 0, resumeCommand: null });
    expect(Object.keys(answer.durationsMs).sort()).toEqual(['connect', 'manifest', 'offer', 'total']);
    // On disk, fsynced and read back before the answer: the session, its messages, its handoff record and the host's baton.
    const doc = await host.store.getSession(answer.sessionId);
    expect(doc).toMatchObject({ title: 'hosted', messageCount: 150, holder: { who: 'browser', handoffId: answer.handoffId } });
    expect(answer.savedAt).toBe(join(dataDir, 'sessions', answer.sessionId));
    expect((await host.store.readMessages(answer.sessionId)).map((m) => m.content)).toEqual(Array.from({ length: 150 }, (_, i) => `Message ${i} `));
    expect(JSON.parse(await readFile(join(answer.savedAt, 'handoff.json'), 'utf8'))).toMatchObject({ handoff_id: answer.handoffId, session_id: answer.sessionId });
    // The host writes the source side's event line once it has answered: closing the host waits for it.
    await host.close();
    const events = (await readFile(join(dataDir, 'events.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(events).toContainEqual(expect.objectContaining({ side: 'source', category: 'accepted', sessionId: answer.sessionId, hosted: true }));

    host = await startHostServices({ dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
    const viaCli = await full(argv);
    expect(viaCli.code).toBe(0);
    expect(comparable(viaHost.stdout)).toBe(comparable(viaCli.stdout));
    expect(viaHost.stderr).toBe(viaCli.stderr);
    expect(await sessions()).toHaveLength(2);
  });

  it('prints what the full CLI prints for people, and for bad messages (nothing saved)', async () => {
    const file = await messagesFile(3);
    const argv = argvOf('--cwd', work, '--messages', file);
    const [viaHost, viaCli] = [await hosted(argv), await full(argv)];
    expect(viaHost.code).toBe(0);
    expect(comparable(viaHost.stdout)).toBe(comparable(viaCli.stdout));
    expect(viaHost.stdout).toMatch(/^The desktop accepted the session\.\nSession s-/);

    const bad = join(root, 'bad.jsonl');
    await writeFile(bad, '{"role":"user","content":"fine"}\n{"role":"user"}\nnot json\n');
    const before = await sessions();
    for (const extra of [[], ['--json']]) {
      const badArgv = argvOf('--cwd', work, '--messages', bad, ...extra);
      const [badHost, badCli] = [await hosted(badArgv), await full(badArgv)];
      expect(badHost).toEqual(badCli);
      expect(badHost.code).toBe(2);
    }
    expect(await sessions()).toEqual(before);
  });

  it('sends a file bigger than a frame in parts, up to the held-file limit', async () => {
    // ~300 KB: three parts of HOSTED_HANDOFF_PART_BYTES.
    const file = await messagesFile(300, 'big.jsonl', 1000);
    const result = await hosted(argvOf('--cwd', work, '--messages', file, '--json'));
    const answer = JSON.parse(result.stdout);
    expect(answer.category).toBe('accepted');
    expect(Math.ceil((await readFile(file)).length / HOSTED_HANDOFF_PART_BYTES)).toBe(3);
    expect((await host.store.getSession(answer.sessionId)).messageCount).toBe(300);
  });

  it('declines, and the full CLI runs as given, without a host or for anything it does not handle', async () => {
    const file = await messagesFile(2);
    const oversize = join(root, 'oversize.jsonl');
    await writeFile(oversize, `${JSON.stringify({ role: 'user', content: 'y'.repeat(HOSTED_HANDOFF_MAX_BYTES) })}\n`);
    const notADir = join(root, 'm.jsonl');
    const cases: string[][] = [
      argvOf('--messages', file, '--dry-run'),
      argvOf('--messages', file, '--session', 's-abc'),
      argvOf('--from', 'claude', '--latest'),
      argvOf('--messages', '-'),
      argvOf('--cwd', work),
      argvOf('--messages', oversize),
      argvOf('--messages', join(root, 'missing.jsonl')),
      argvOf('--messages', root),
      argvOf('--messages', file, '--cwd', notADir),
      argvOf('--messages', file, '--cwd', join(root, 'gone')),
      argvOf('--messages', file, '--to', 'laptop'),
      argvOf('--messages', file, '--timeout', 'soon'),
      argvOf('--messages', file, '--json', '--json'),
      argvOf('--messages', file, '--title', '-t'),
      argvOf('--messages', file, 'extra'),
      argvOf('-h'),
    ];
    for (const argv of cases) expect(await tryFastHandoff(argv, env()), argv.join(' ')).toEqual({ fallback: argv });
    // A forwarded desktop (`baton ssh`): the content travels another way.
    const argv = argvOf('--messages', file);
    expect(await tryFastHandoff(argv, { ...env(), [SSH_ENDPOINT_ENV]: join(root, 'fwd') })).toEqual({ fallback: argv });
    // No host: another data dir, no socket.
    expect(await tryFastHandoff(argv, { ...env(), BATON_HOME: join(root, 'other') })).toEqual({ fallback: argv });
    expect(await sessions()).toEqual([]);
  });

  it('takes the flags it handles in both spellings', () => {
    expect(fastHandoffFlags(argvOf('--messages=m', '--cwd', '/w', '--title=t', '--no-launch', '--json', '--timeout', '2.5'))).toEqual({ messages: 'm', cwd: '/w', title: 't', json: true, timeoutMs: 2500 });
    expect(fastHandoffFlags(argvOf('--messages', 'm'))).toEqual({ messages: 'm', json: false });
    expect(fastHandoffFlags(argvOf('--messages'))).toBeNull();
    expect(fastHandoffFlags(argvOf('--messages='))).toBeNull();
    expect(fastHandoffFlags(['node', 'baton', 'list', '--messages', 'm'])).toBeNull();
  });

  it('falls back with --land-as after a host that does not know the request (an older host): one session, under that id', async () => {
    await host.close();
    const endpoint = resolveEndpoint(dataDir);
    await ensureEndpointDir(endpoint.dir);
    const token = await loadOrCreateToken(endpoint.tokenPath);
    const older = await startEndpointServer({ endpoint, token, handle: async (request) => ({ ok: false, code: 'UNKNOWN_METHOD', message: `Unknown method "${request.method}"` }) });
    try {
      const file = await messagesFile(4);
      const argv = argvOf('--cwd', work, '--messages', file, '--json', '--no-launch', '--timeout', '0');
      const declined = await tryFastHandoff(argv, env());
      expect('fallback' in declined && declined.fallback.slice(0, argv.length)).toEqual(argv);
      const fallback = (declined as { fallback: string[] }).fallback;
      expect(fallback.slice(argv.length, -1)).toEqual(['--land-as']);
      expect(await sessions()).toEqual([]);
      // The full CLI lands it under the id the request named (no receiver takes it here).
      await older.close();
      const ran = await full(fallback);
      expect(JSON.parse(ran.stdout)).toMatchObject({ category: 'no_target', sessionId: fallback.at(-1) });
      expect(await sessions()).toEqual([fallback.at(-1)]);
    } finally {
      await older.close().catch(() => undefined);
    }
  });
});

describe('the client after a dropped connection', () => {
  /**
   * A socket in front of the host's, in another data dir that holds the host's token: it forwards
   * both ways and, for the first `drops` connections that carry handoff.land, closes the client's
   * side as soon as the request has gone through to the host (which then lands it).
   */
  async function droppingProxy(drops: number, stopListeningAfterDrops = false) {
    const clientData = join(root, 'client-data');
    const clientEndpoint = resolveEndpoint(clientData);
    await ensureEndpointDir(clientEndpoint.dir);
    await copyFile(host.endpoint.tokenPath, clientEndpoint.tokenPath);
    await chmod(clientEndpoint.tokenPath, 0o600);
    let left = drops;
    let attempts = 0;
    const server = createServer((client) => {
      const upstream = connect(host.endpoint.address);
      upstream.on('data', (chunk) => client.writable && client.write(chunk));
      client.on('data', (chunk) => {
        upstream.write(chunk);
        if (chunk.includes(HOSTED_HANDOFF_METHOD)) attempts++;
        if (left > 0 && chunk.includes(HOSTED_HANDOFF_METHOD)) {
          left--;
          upstream.end();
          client.destroy();
          // The host is gone for the client from now on: its next connection is refused.
          if (left === 0 && stopListeningAfterDrops) server.close();
        }
      });
      for (const socket of [client, upstream]) socket.on('error', () => undefined);
      client.on('close', () => upstream.end());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((done) => server.listen(clientEndpoint.address, done));
    return { clientData, attempts: () => attempts, close: () => new Promise<void>((done) => (server.listening ? server.close(() => done()) : done())) };
  }

  it('sends the request once more and prints the host\'s first answer: one session', async () => {
    const proxy = await droppingProxy(1);
    try {
      const file = await messagesFile(10);
      const run = await captured(async () => {
        const result = await tryFastHandoff(argvOf('--cwd', work, '--messages', file, '--json'), { ...process.env, BATON_HOME: proxy.clientData });
        if (!('exitCode' in result)) throw new Error(`declined: ${result.fallback.join(' ')}`);
        return result.exitCode;
      });
      expect(run.code).toBe(0);
      const answer = JSON.parse(run.stdout);
      expect(answer).toMatchObject({ category: 'accepted', savedAt: join(dataDir, 'sessions', answer.sessionId) });
      expect(await sessions()).toEqual([answer.sessionId]);
    } finally {
      await proxy.close();
    }
  });

  it('when the second attempt drops too, runs the full CLI with --land-as the id the host landed', async () => {
    const proxy = await droppingProxy(2);
    try {
      const file = await messagesFile(10);
      const argv = argvOf('--cwd', work, '--messages', file, '--json');
      const result = await tryFastHandoff(argv, { ...process.env, BATON_HOME: proxy.clientData });
      expect('fallback' in result).toBe(true);
      const fallback = (result as { fallback: string[] }).fallback;
      expect(fallback.slice(0, -1)).toEqual([...argv, '--land-as']);
      expect(proxy.attempts()).toBe(2);
      // The host landed it under that id (give its landing a moment): the full CLI in the same data dir would offer it, not land it again.
      await expect.poll(sessions).toEqual([fallback.at(-1)]);
    } finally {
      await proxy.close();
    }
  });

  it('when the second attempt cannot connect (after a request that may have landed), runs the full CLI with --land-as: one session', async () => {
    const proxy = await droppingProxy(1, true);
    try {
      const file = await messagesFile(10);
      const argv = argvOf('--cwd', work, '--messages', file, '--json');
      const result = await tryFastHandoff(argv, { ...process.env, BATON_HOME: proxy.clientData });
      // Declining as if nothing was sent would let the full CLI land a second session.
      expect(result).toEqual({ fallback: [...argv, '--land-as', expect.stringMatching(/^s-/)] });
      expect(proxy.attempts()).toBe(1);
      const sessionId = (result as { fallback: string[] }).fallback.at(-1)!;
      // Once the host has landed, taken and recorded it, the full CLI (in the host's data dir) offers that session: the host knows it.
      await expect.poll(async () => (await readFile(join(dataDir, 'events.jsonl'), 'utf8').catch(() => '')).includes(sessionId)).toBe(true);
      const ran = await full(result && (result as { fallback: string[] }).fallback);
      expect(JSON.parse(ran.stdout)).toMatchObject({ category: 'duplicate', sessionId });
      expect(await sessions()).toEqual([sessionId]);
    } finally {
      await proxy.close();
    }
  });
});

describe('what the client sends', () => {
  it('says whether a .git is found upward from cwd (the host then refuses a capture without one), and declines under GIT_DIR', async () => {
    await host.close();
    const endpoint = resolveEndpoint(dataDir);
    await ensureEndpointDir(endpoint.dir);
    const token = await loadOrCreateToken(endpoint.tokenPath);
    const seen: unknown[] = [];
    const older = await startEndpointServer({ endpoint, token, handle: async (request) => (seen.push(request.params), { ok: false, code: 'UNKNOWN_METHOD', message: 'no' }) });
    try {
      const file = await messagesFile(2);
      const nested = join(root, 'repo', 'a', 'b');
      await mkdir(nested, { recursive: true });
      await mkdir(join(root, 'repo', '.git'));
      await tryFastHandoff(argvOf('--cwd', nested, '--messages', file), env());
      await tryFastHandoff(argvOf('--cwd', work, '--messages', file), env());
      expect(seen).toMatchObject([{ cwd: nested, git: true }, { cwd: work, git: false }]);
      const argv = argvOf('--cwd', work, '--messages', file);
      expect(await tryFastHandoff(argv, { ...env(), GIT_DIR: join(root, 'repo', '.git') })).toEqual({ fallback: argv });
      expect(seen).toHaveLength(2);
    } finally {
      await older.close();
    }
  });
});

describe('the built client\'s process', () => {
  it('loads neither node:crypto nor perf_hooks: the id\'s random bytes are the handshake\'s /dev/urandom pool, and the clock is read only for a trace', async () => {
    // Node's own record of the built-in modules the process loaded, written at exit. Web Crypto's
    // getRandomValues (the session id) loaded a dozen crypto modules, and the `performance`
    // global (the moment the request left) eleven of perf_hooks: 3–10 ms of the CLI's CPU.
    const launcher = join(import.meta.dirname, '..', '..', 'bin', 'baton.js');
    if (!existsSync(join(import.meta.dirname, '..', '..', 'dist', 'cli', 'baton-handoff-fast.cjs'))) throw new Error('dist/cli/baton-handoff-fast.cjs is missing: run npm run build:node first (npm test does)');
    const preload = join(root, 'modules-at-exit.cjs');
    await writeFile(preload, "process.on('exit', () => require('node:fs').writeFileSync(process.env.MODULES_OUT, JSON.stringify(process.moduleLoadList)));\n");
    const out = join(root, 'modules.json');
    const file = await messagesFile(150);
    const { stdout } = await run(process.execPath, ['-r', preload, launcher, 'handoff', '--cwd', work, '--messages', file, '--no-launch', '--json'], { env: { ...env(), MODULES_OUT: out } });
    const answer = JSON.parse(stdout) as { ok: boolean; sessionId: string };
    expect(answer).toMatchObject({ ok: true, category: 'accepted' });
    // The host landed it (its event line says hosted), not the full CLI the client falls back to.
    await host.close();
    const events = (await readFile(join(dataDir, 'events.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events).toContainEqual(expect.objectContaining({ side: 'source', sessionId: answer.sessionId, hosted: true }));
    const loaded = JSON.parse(await readFile(out, 'utf8')) as string[];
    expect(loaded.length).toBeGreaterThan(50);
    expect(loaded.filter((m) => /crypto/.test(m))).toEqual([]);
    expect(loaded).not.toContain('NativeModule perf_hooks');
    expect(loaded).not.toContain('NativeModule internal/perf/performance');
  }, 60_000);
});

describe('a host that does not answer', () => {
  it('is waited for --timeout plus the landing allowance, asked once, then the full CLI runs with --land-as', async () => {
    await host.close();
    const endpoint = resolveEndpoint(dataDir);
    await ensureEndpointDir(endpoint.dir);
    const token = await loadOrCreateToken(endpoint.tokenPath);
    let asked = 0;
    const stalled: (() => void)[] = [];
    const server = await startEndpointServer({
      endpoint,
      token,
      handle: (request) => {
        if (request.method === HOSTED_HANDOFF_METHOD) asked++;
        return new Promise((answer) => stalled.push(() => answer({ ok: false, code: 'CLOSED', message: 'closing' })));
      },
    });
    try {
      const file = await messagesFile(4);
      const argv = argvOf('--cwd', work, '--messages', file, '--json', '--timeout', '0.2');
      const started = Date.now();
      const result = await tryFastHandoff(argv, env(), 100);
      // Before: 2 x 120 s.
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(result).toEqual({ fallback: [...argv, '--land-as', expect.stringMatching(/^s-/)] });
      expect(asked).toBe(1);
    } finally {
      for (const answer of stalled) answer();
      await server.close();
    }
  });
});

describe('a request sent twice (a dropped connection)', () => {
  async function send(sessionId: string, file: string, closeAfterSending = false, cwd = work) {
    const bytes = await readFile(file);
    const client = await connectEndpoint({ endpoint: host.endpoint, token: host.token });
    const params = { sessionId, cwd, source: file, bytes: bytes.length, parts: 1, part: 0, data: bytes.toString('base64') };
    const answer = client.request(HOSTED_HANDOFF_METHOD, params, { timeoutMs: 30_000 });
    if (closeAfterSending) {
      // The connection drops once the host has the request (it records the payload's digest before it lands).
      await expect.poll(() => readFile(join(dataDir, 'hosted-handoffs', sessionId)).then(() => true, () => false)).toBe(true);
      client.close();
      await answer.catch(() => undefined);
      return null;
    }
    try {
      return await answer;
    } finally {
      client.close();
    }
  }

  it('is answered with the first answer, and lands once', async () => {
    const file = await messagesFile(20);
    const sessionId = newId('s-');
    await send(sessionId, file, true);
    const again = await send(sessionId, file);
    const third = await send(sessionId, file);
    expect(again).toMatchObject({ ok: true, outcome: { category: 'accepted', sessionId } });
    expect(third).toEqual(again);
    expect(await sessions()).toEqual([sessionId]);
  });

  it('after a host restart, the saved session is offered again and recognised (duplicate), not landed again', async () => {
    const file = await messagesFile(20);
    const sessionId = newId('s-');
    const first = (await send(sessionId, file)) as unknown as { outcome: { handoffId: string } };
    await host.close();
    host = await startHostServices({ dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
    // The same id with another payload: a conflict, from the digest kept beside the store (this host never saw the first).
    expect(await send(sessionId, await messagesFile(3, 'other.jsonl'))).toMatchObject({ ok: false, code: 'CONFLICT' });
    expect(await send(sessionId, file, false, root)).toMatchObject({ ok: false, code: 'CONFLICT' });
    const again = await send(sessionId, file);
    expect(again).toMatchObject({ ok: true, outcome: { category: 'duplicate', sessionId, handoffId: first.outcome.handoffId } });
    expect(await sessions()).toEqual([sessionId]);
  });

  it('the full CLI with --land-as offers the session when the host\'s landing won the race with its own (CONFLICT: saved already)', async () => {
    const file = await messagesFile(20);
    const sessionId = newId('s-');
    await send(sessionId, file);
    // The CLI's first look finds nothing (the host had not renamed it into place yet); its own landing then meets the host's.
    const real = FileSessionStore.prototype.getSession;
    let hidden = 1;
    const spy = vi.spyOn(FileSessionStore.prototype, 'getSession').mockImplementation(function (this: FileSessionStore, id: string) {
      if (id === sessionId && hidden > 0 && hidden--) return Promise.reject(new StoreError('NOT_FOUND', `Session ${id} not found.`, id));
      return real.call(this, id);
    });
    try {
      const ran = await full(argvOf('--cwd', work, '--messages', file, '--json', '--land-as', sessionId));
      expect(hidden).toBe(0);
      // Before: write_failure, "could not be saved, so nothing was sent", with the session saved.
      expect(JSON.parse(ran.stdout)).toMatchObject({ category: 'duplicate', sessionId, savedAt: join(dataDir, 'sessions', sessionId) });
    } finally {
      spy.mockRestore();
    }
    expect(await sessions()).toEqual([sessionId]);
  });

  it('the full CLI with --land-as offers the session a host saved already instead of landing it twice', async () => {
    const file = await messagesFile(20);
    const sessionId = newId('s-');
    const first = (await send(sessionId, file)) as unknown as { outcome: { handoffId: string } };
    const ran = await full(argvOf('--cwd', work, '--messages', file, '--json', '--land-as', sessionId));
    expect(JSON.parse(ran.stdout)).toMatchObject({ category: 'duplicate', sessionId, handoffId: first.outcome.handoffId });
    expect(await sessions()).toEqual([sessionId]);
    // Another payload under that id: a conflict, nothing offered.
    const other = await full(argvOf('--cwd', work, '--messages', file, '--title', 'other', '--json', '--land-as', sessionId));
    expect(other.code).toBe(1);
    expect(JSON.parse(other.stdout)).toMatchObject({ ok: false, code: 'CONFLICT' });
    const refused = await full(argvOf('--messages', file, '--json', '--land-as', '../x'));
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, code: 'BAD_ARGUMENT' });
  });
});
