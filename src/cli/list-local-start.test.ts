import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claude, claudeLogPath, writeLog } from '../core/importers/test-fixtures/build-logs.js';

/**
 * What a warm `baton list --json` without a host starts (issue 15): the built launcher runs the
 * list bundle (dist/cli/baton-list-local.cjs), which answers from the candidate index. The
 * scanner, its parse pool (worker_threads) and the redaction rules are for a listing the index
 * cannot answer; a warm listing that initialised them paid their start-up for nothing. Nor does it
 * start a process, so node:child_process (commander's, for executable subcommands) stays unloaded,
 * and it hashes, signs and draws nothing random, so node:crypto does too.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const BATON = join(ROOT, 'bin', 'baton.js');
let root: string;
let env: NodeJS.ProcessEnv;
let preload: string;

const run = promisify(execFile);

/** Every folder under `dir` (and `dir`), dated an hour back: the quick scan trusts an index written after them at once. */
async function dateFoldersBack(dir: string): Promise<void> {
  const anHourAgo = new Date(Date.now() - 3_600_000);
  for (const entry of await readdir(dir, { withFileTypes: true })) if (entry.isDirectory()) await dateFoldersBack(join(dir, entry.name));
  await utimes(dir, anHourAgo, anHourAgo);
}

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'baton-list-local.cjs'))) throw new Error('dist/cli/baton-list-local.cjs is missing: run npm run build:node first');
  root = await mkdtemp(join(tmpdir(), 'baton-list-local-start-'));
  const home = join(root, 'home');
  env = { ...process.env, HOME: home, BATON_HOME: join(root, 'data'), XDG_RUNTIME_DIR: join(root, 'run'), DISPLAY: '', WAYLAND_DISPLAY: '' };
  for (let i = 0; i < 3; i++) {
    const id = `dddddddd-0000-4000-8000-${String(i).padStart(12, '0')}`;
    await writeLog(claudeLogPath(home, '/home/dev/warm', id), [claude.user({ uuid: `${id}-u`, cwd: '/home/dev/warm', sessionId: id }, `prompt ${i}`)]);
  }
  await dateFoldersBack(home);
  // Node's own record of the built-in modules this process loaded, written at exit.
  preload = join(root, 'modules.cjs');
  await writeFile(preload, "process.on('exit', () => require('node:fs').writeFileSync(process.env.MODULES_FILE, JSON.stringify(process.moduleLoadList)));\n");
}, 60_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/**
 * The Node modules a warm `baton list --json` loaded (recorded by the preload into `file`), after
 * checking that it answered; zlib is among them, so the record is real (the index's CRC-32).
 */
async function modulesOfWarmListing(file: string, extraEnv: Record<string, string> = {}): Promise<string[]> {
  const modules = join(root, file);
  const warm = await run(process.execPath, ['--require', preload, BATON, 'list', '--json'], { env: { ...env, ...extraEnv, MODULES_FILE: modules } });
  expect(JSON.parse(warm.stdout)).toMatchObject({ ok: true, total: 3 });
  const loaded = JSON.parse(await readFile(modules, 'utf8')) as string[];
  expect(loaded).toContain('NativeModule zlib');
  return loaded;
}

describe('a warm baton list --json without a host', () => {
  it('prints the same document through a pipe as into a file (both written to fd 1 synchronously)', async () => {
    await run(process.execPath, [BATON, 'list', '--json', '--no-host'], { env });
    const file = join(root, 'listing.json');
    await run('/bin/sh', ['-c', `"${process.execPath}" "${BATON}" list --json --no-host > "${file}"`], { env });
    const piped = await run(process.execPath, [BATON, 'list', '--json', '--no-host'], { env });
    const strip = (text: string) => text.replace(/"ms":\d+(\.\d+)?/g, '"ms":0');
    expect(strip(piped.stdout)).toBe(strip(await readFile(file, 'utf8')));
  }, 60_000);

  it('a reader that stops after the first bytes (`| head`) ends it with exit 0 and nothing on stderr', async () => {
    // Many times what a pipe holds (64 KiB), so the listing is still writing when the reader leaves.
    const home = join(root, 'home-many');
    for (let i = 0; i < 1500; i++) {
      const id = `cccccccc-0000-4000-8000-${String(i).padStart(12, '0')}`;
      await writeLog(claudeLogPath(home, `/home/dev/many-${i % 7}`, id), [claude.user({ uuid: `${id}-u`, cwd: `/home/dev/many-${i % 7}`, sessionId: id }, `prompt ${i} ${'y'.repeat(200)}`)]);
    }
    const many = { ...env, HOME: home, BATON_HOME: join(root, 'data-many') };
    const whole = await run(process.execPath, [BATON, 'list', '--json', '--no-host'], { env: many, maxBuffer: 1 << 24 });
    expect(whole.stdout.length).toBeGreaterThan(512 * 1024);
    const cut = await new Promise<{ code: number | null; stderr: string }>((done, fail) => {
      const child = spawn(process.execPath, [BATON, 'list', '--json', '--no-host'], { env: many, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stdout.once('data', () => child.stdout.destroy());
      child.stderr.on('data', (d) => (stderr += d));
      child.on('error', fail);
      child.on('close', (code) => done({ code, stderr }));
    });
    expect(cut).toEqual({ code: 0, stderr: '' });
  }, 60_000);

  it('answers from the index without starting the scanner (worker_threads, its parse pool, stays unloaded)', async () => {
    const cold = await run(process.execPath, [BATON, 'list', '--json', '--no-host'], { env });
    expect(JSON.parse(cold.stdout)).toMatchObject({ ok: true, total: 3 });
    const trace = join(root, 'trace.jsonl');
    const loaded = await modulesOfWarmListing('modules.json', { BATON_PHASE_TRACE: trace });
    // The index answered (not the scan), so what it loaded is the warm listing's start-up.
    expect(JSON.parse(await readFile(trace, 'utf8')).marks).toHaveProperty('index-listing');
    expect(loaded).not.toContain('NativeModule worker_threads');
  }, 60_000);

  it('loads no node:child_process (commander\'s spawn loads it when called), no node:net (its JSON is written to fd 1), no perf_hooks, no node:crypto and no node:v8', async () => {
    await run(process.execPath, [BATON, 'list', '--json', '--no-host'], { env });
    const loaded = await modulesOfWarmListing('modules-unused.json');
    expect(loaded).not.toContain('NativeModule child_process');
    // Its JSON goes to fd 1 with synchronous writes: no process.stdout, whose pipe stream loads node:net.
    expect(loaded).not.toContain('NativeModule net');
    // Its agentScan.ms comes from process.hrtime: the first use of `performance` loads perf_hooks (~0.8 ms).
    expect(loaded).not.toContain('NativeModule perf_hooks');
    // The list bundles require node:crypto at first use, and a new store's listing draws no key.
    expect(loaded).not.toContain('NativeModule crypto');
    // node:v8 is for the heap cap of a host or a big scan (heap-growth.ts): loaded on first use (scripts/build-cli.js v8OnFirstUse).
    expect(loaded).not.toContain('NativeModule v8');
  }, 60_000);

  it('reads its store through neither node:fs/promises nor the thread pool (the store opened for reading)', async () => {
    await run(process.execPath, [BATON, 'list', '--json', '--no-host'], { env });
    const threads = join(root, 'threads.cjs');
    const counted = join(root, 'threads.txt');
    // The threads alive at exit: libuv's pool adds four the first time anything is queued on it.
    await writeFile(threads, "process.on('exit', () => require('node:fs').writeFileSync(process.env.THREADS_FILE, String(require('node:fs').readdirSync('/proc/self/task').length)));\n");
    const loaded = await modulesOfWarmListing('modules-fs.json');
    expect(loaded).not.toContain('NativeModule fs/promises');
    expect(loaded).not.toContain('NativeModule internal/fs/promises');
    if (process.platform !== 'linux') return;
    await run(process.execPath, ['--require', threads, '-e', ''], { env: { ...env, THREADS_FILE: counted } });
    const floor = Number(await readFile(counted, 'utf8'));
    const warm = await run(process.execPath, ['--require', threads, BATON, 'list', '--json', '--no-host'], { env: { ...env, THREADS_FILE: counted } });
    expect(JSON.parse(warm.stdout)).toMatchObject({ ok: true, total: 3 });
    expect(Number(await readFile(counted, 'utf8'))).toBe(floor);
  }, 60_000);

  it('without a host\'s socket compiles the list bundle alone; with an encryption.json, the key-read bundle first (its early keychain read), for `baton resume` too', async () => {
    await run(process.execPath, [BATON, 'list', '--json', '--no-host'], { env });
    // Records every bundle the launcher reads (bin/load-cli.js reads them with fs.readFileSync).
    const hook = join(root, 'bundles.cjs');
    const record = join(root, 'bundles.json');
    await writeFile(
      hook,
      "const fs = require('node:fs'); const read = fs.readFileSync; const seen = []; fs.readFileSync = function (file, ...rest) { if (typeof file === 'string' && file.endsWith('.cjs')) seen.push(require('node:path').basename(file)); return read.call(this, file, ...rest); };\n" +
        `process.on('exit', () => fs.writeFileSync(${JSON.stringify(record)}, JSON.stringify(seen)));\n`,
    );
    for (const flags of [['--no-host'], []]) {
      const warm = await run(process.execPath, ['--require', hook, BATON, 'list', '--json', ...flags], { env });
      expect(JSON.parse(warm.stdout)).toMatchObject({ ok: true, total: 3 });
      expect(JSON.parse(await readFile(record, 'utf8'))).toEqual(['baton-list-local.cjs']);
    }
    const data = join(root, 'data-keyring');
    await mkdir(data, { recursive: true, mode: 0o700 });
    await writeFile(join(data, 'encryption.json'), JSON.stringify({ version: 1, mode: 'keyring' }));
    await run(process.execPath, ['--require', hook, BATON, 'list', '--json', '--no-host'], { env: { ...env, BATON_HOME: data } }).catch((error: { stdout: string }) => error);
    // This encryption.json lacks its key: checked (and refused) by hand, zod stays unloaded (settings-file.ts).
    expect(JSON.parse(await readFile(record, 'utf8'))).toEqual(['baton-key-read.cjs', 'baton-list-local.cjs']);
    // `baton resume` without a host starts the same early read before the resume bundle compiles.
    await run(process.execPath, ['--require', hook, BATON, 'resume', '--json'], { env: { ...env, BATON_HOME: data } }).catch((error: { stdout: string }) => error);
    expect(JSON.parse(await readFile(record, 'utf8'))).toEqual(['baton-key-read.cjs', 'baton.cjs']);
    await run(process.execPath, ['--require', hook, BATON, 'resume', '--json'], { env }).catch((error: { stdout: string }) => error);
    expect(JSON.parse(await readFile(record, 'utf8'))).toEqual(['baton.cjs']);
  }, 60_000);

  it('initialises no zod: its schemas are built, and zod loaded, at the first parse (issue 15)', async () => {
    await run(process.execPath, [BATON, 'list', '--json', '--no-host'], { env });
    const zodRecord = join(root, 'zod.cjs');
    const answer = join(root, 'zod.txt');
    // zod's core sets globalThis.__zod_globalConfig when its modules initialise.
    await writeFile(zodRecord, "process.on('exit', () => require('node:fs').writeFileSync(process.env.ZOD_FILE, String('__zod_globalConfig' in globalThis)));\n");
    const warm = await run(process.execPath, ['--require', zodRecord, BATON, 'list', '--json'], { env: { ...env, ZOD_FILE: answer } });
    expect(JSON.parse(warm.stdout)).toMatchObject({ ok: true, total: 3 });
    expect(await readFile(answer, 'utf8')).toBe('false');
    // The record is real: a listing that parses (the store's index is gone, below) initialises zod.
    // Saved in the store, then refused for want of a running app (exit 1): the session stays.
    const handoff = await run(process.execPath, [BATON, 'handoff', '--cwd', root, '--title', 'parsed', '--messages', await messagesFile(), '--no-launch', '--json'], { env }).catch((error: { stdout: string }) => error);
    expect(JSON.parse(handoff.stdout)).toMatchObject({ category: 'no_target' });
    // Index and journal both gone: the session's row comes from its session.json, parsed (a listing
    // opens the store for reading, so it takes the journal's rows as they are and rebuilds nothing).
    await rm(join(env.BATON_HOME!, 'index.json'), { force: true });
    await rm(join(env.BATON_HOME!, 'index.journal.jsonl'), { force: true });
    const parsing = await run(process.execPath, ['--require', zodRecord, BATON, 'list', '--json'], { env: { ...env, ZOD_FILE: answer } });
    expect(JSON.parse(parsing.stdout).groups.flatMap((g: { sessions: { title: string }[] }) => g.sessions.map((s) => s.title))).toContain('parsed');
    expect(await readFile(answer, 'utf8')).toBe('true');
  }, 60_000);

  it('reads neither side bundle (zod, secretlint); a listing that parses reads baton-zod.cjs, a cold one that redacts baton-secretlint.cjs, and a key in a title is redacted as before', async () => {
    // A data dir of its own: the zod test above leaves the shared one's store without its index.
    const warmEnv = { ...env, BATON_HOME: join(root, 'data-side-warm') };
    await run(process.execPath, [BATON, 'list', '--json', '--no-host'], { env: warmEnv });
    // Records every bundle the launcher reads, in order (bin/load-cli.js reads them with fs.readFileSync).
    const hook = join(root, 'side-bundles.cjs');
    const record = join(root, 'side-bundles.json');
    await writeFile(
      hook,
      "const fs = require('node:fs'); const read = fs.readFileSync; const seen = []; fs.readFileSync = function (file, ...rest) { if (typeof file === 'string' && file.endsWith('.cjs')) seen.push(require('node:path').basename(file)); return read.call(this, file, ...rest); };\n" +
        `process.on('exit', () => fs.writeFileSync(${JSON.stringify(record)}, JSON.stringify(seen)));\n`,
    );
    const listed = async (runEnv: NodeJS.ProcessEnv, flags: string[] = []) => {
      const answer = await run(process.execPath, ['--require', hook, BATON, 'list', '--json', '--no-host', ...flags], { env: runEnv });
      const listing = JSON.parse(answer.stdout) as { ok: boolean; total: number; groups: { sessions: { title: string }[] }[] };
      return { listing, titles: listing.groups.flatMap((g) => g.sessions.map((s) => s.title)), read: JSON.parse(await readFile(record, 'utf8')) as string[] };
    };
    const warm = await listed(warmEnv);
    expect(warm.listing).toMatchObject({ ok: true, total: 3 });
    expect(warm.read).toEqual(['baton-list-local.cjs']);
    // A store whose index and journal are gone: the session's row comes from its session.json, parsed with zod.
    const parsedData = join(root, 'data-side-zod');
    const handoff = await run(process.execPath, [BATON, 'handoff', '--cwd', root, '--title', 'parsed from its file', '--messages', await messagesFile(), '--no-launch', '--json'], { env: { ...env, BATON_HOME: parsedData } }).catch((error: { stdout: string }) => error);
    expect(JSON.parse(handoff.stdout)).toMatchObject({ category: 'no_target' });
    await rm(join(parsedData, 'index.json'), { force: true });
    await rm(join(parsedData, 'index.journal.jsonl'), { force: true });
    const parsed = await listed({ ...env, BATON_HOME: parsedData }, ['--no-agents']);
    expect(parsed.titles).toEqual(['parsed from its file']);
    expect(parsed.read).toEqual(['baton-list-local.cjs', 'baton-zod.cjs']);
    // A cold listing of a session whose prompt holds made-up keys: secretlint's preset names the
    // GitHub token `github` (Baton's own pattern would say github-token) and the AWS key id `aws`.
    const home = join(root, 'home-secret');
    const id = 'ffffffff-0000-4000-8000-000000000000';
    const githubToken = 'gh' + 'p_' + 'aB3dE5fG7hJ9kL2mN4pQ6rS8tV0wX1yZaB3d';
    const awsKey = 'AKIA' + 'QWERTYUIOPASDFGH';
    await writeLog(claudeLogPath(home, '/home/dev/secret', id), [claude.user({ uuid: `${id}-u`, cwd: '/home/dev/secret', sessionId: id }, `push with ${githubToken} and ${awsKey}`)]);
    const redacted = await listed({ ...env, HOME: home, BATON_HOME: join(root, 'data-side-secretlint') });
    expect(redacted.titles).toEqual(['push with [REDACTED:github] and [REDACTED:aws]']);
    expect(redacted.read).toContain('baton-secretlint.cjs');
    expect(redacted.read).not.toContain('baton.cjs');
    // Its folder changed again, its file did not: the scan runs and reads nothing new, so it redacts
    // nothing and loads no secretlint (preset-prefilter.ts builds its rule list at the first window).
    const now = new Date();
    await utimes(join(home, '.claude', 'projects', '-home-dev-secret'), now, now);
    const trace = join(root, 'side-bundles-trace.jsonl');
    const rescanned = await listed({ ...env, HOME: home, BATON_HOME: join(root, 'data-side-secretlint'), BATON_PHASE_TRACE: trace });
    expect(rescanned.titles).toEqual(redacted.titles);
    expect(JSON.parse((await readFile(trace, 'utf8')).trim().split('\n').at(-1)!).marks).toHaveProperty('scan-start');
    expect(rescanned.read).toEqual(['baton-list-local.cjs']);
  }, 60_000);

  it('refuses an encryption.json of the wrong shape, naming each issue', async () => {
    const data = join(root, 'data-encrypted');
    await mkdir(data, { recursive: true });
    await writeFile(join(data, 'encryption.json'), JSON.stringify({ version: 1, mode: 'keyring' }));
    const refused = await run(process.execPath, [BATON, 'list', '--json', '--no-host'], { env: { ...env, BATON_HOME: data } }).catch((error: { stdout: string }) => error);
    expect(JSON.parse(refused.stdout)).toMatchObject({
      ok: false,
      code: 'KEY_UNAVAILABLE',
      message: `${join(data, 'encryption.json')} is not a valid encryption settings file (key: expected an object, got nothing; enabledAt: expected a string, got nothing). Restore it from a backup; nothing was written.`,
    });
  }, 60_000);
});

/** A one-message transcript for `baton handoff --messages`. */
async function messagesFile(): Promise<string> {
  const file = join(root, 'messages.jsonl');
  await writeFile(file, '{"role":"user","content":"parsed at the listing"}\n');
  return file;
}
