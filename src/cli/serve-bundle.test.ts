import { execFile, spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { installLauncherCopy } from '../../scripts/launcher-copy.js';

/**
 * `baton serve` from its own bundle (src/cli/serve-main.ts -> dist/cli/baton-serve.cjs, issue 15):
 * the launcher runs it for `serve`, its shipped cache already holds what a new host runs to its
 * page's first screen, and it answers as the whole CLI does. Needs the build (npm test builds first).
 */
const REPO = join(import.meta.dirname, '..', '..');
const LAUNCHER = join(REPO, 'bin', 'baton.js');
const SERVE_BUNDLE = join(REPO, 'dist', 'cli', 'baton-serve.cjs');
const SESSIONS = 3;
const run = promisify(execFile);
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  if (!existsSync(SERVE_BUNDLE)) throw new Error('the build is missing: run npm run build first (npm test does)');
  dir = await mkdtemp(join(tmpdir(), 'baton-serve-bundle-'));
  // Claude Code sessions under a HOME of our own, their folders dated back so a host's index trusts them.
  const home = join(dir, 'home');
  const project = join(home, '.claude', 'projects', '-work');
  await mkdir(project, { recursive: true });
  for (let i = 0; i < SESSIONS; i++) {
    const id = `00000000-0000-4000-8000-00000000000${i}`;
    await writeFile(join(project, `${id}.jsonl`), `${JSON.stringify({ type: 'user', uuid: `10000000-0000-4000-8000-00000000000${i}`, sessionId: id, cwd: '/work', timestamp: `2026-01-0${i + 1}T00:00:00.000Z`, message: { role: 'user', content: `session ${i}` } })}\n`);
  }
  const past = new Date(Date.now() - 3_600_000);
  for (const d of [project, join(home, '.claude', 'projects'), join(home, '.claude'), home]) await utimes(d, past, past);
  env = { ...process.env, HOME: home, BATON_HOME: join(dir, 'data'), XDG_RUNTIME_DIR: join(dir, 'run') };
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The page's first agents:list over its WebSocket, as the page asks it. */
async function firstAgents(url: URL): Promise<{ ok: boolean }> {
  const ws = new WebSocket(`ws://127.0.0.1:${url.port}/ws?token=${url.searchParams.get('token')}`, { origin: `http://127.0.0.1:${url.port}` });
  try {
    await new Promise((done, fail) => ws.once('open', done).once('error', fail));
    const answered = new Promise<{ ok: boolean }>((done) => ws.on('message', (data) => ((m) => m.kind === 'response' && done(m.result))(JSON.parse(data.toString()))));
    ws.send(JSON.stringify({ kind: 'request', id: 1, channel: 'agents:list', payload: { offset: 0, limit: 200 } }));
    return await answered;
  } finally {
    ws.terminate();
  }
}

/** One host start in this data dir from the serve bundle (scripts/serve-first-screen.cjs), reporting its cache's sizes once the first screen is answered. */
async function firstScreenCache(): Promise<{ rejected: boolean; shipped: number; after: number; answers: Record<string, { ok: boolean }> }> {
  const script = `const { statSync } = require('node:fs');
const { SERVE_CACHE } = require(${JSON.stringify(join(REPO, 'bin', 'load-cli.js'))});
require(${JSON.stringify(join(REPO, 'scripts', 'serve-first-screen.cjs'))}).serveFirstScreen().then(({ serve, answers }) => {
  process.stderr.write('\\n' + JSON.stringify({ rejected: serve.script.cachedDataRejected, shipped: statSync(SERVE_CACHE).size, after: serve.script.createCachedData().length, answers }) + '\\n');
  process.kill(process.pid, 'SIGTERM');
});`;
  // A host that never answers is stopped (execFile's timeout), not left running after the test.
  const { stderr } = await run(process.execPath, ['-e', script], { cwd: REPO, env, timeout: 60_000 });
  return JSON.parse(stderr.trim().split('\n').at(-1)!);
}

describe('baton serve from its own bundle', () => {
  it('the launcher compiles the serve bundle alone for `baton serve`, and the page\'s first agents:list is answered', async () => {
    // A launcher trace: every script load-cli.js compiles, recorded at the host's exit.
    const record = join(dir, 'compiled.json');
    const hook = join(dir, 'trace-compiles.cjs');
    await writeFile(
      hook,
      `const vm = require('node:vm');
const compiled = [];
const Script = vm.Script;
vm.Script = class extends Script { constructor(source, options) { super(source, options); compiled.push(options && options.filename); } };
if (require('node:worker_threads').isMainThread) process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify(compiled)));\n`,
    );
    const child = spawn(process.execPath, ['--require', hook, LAUNCHER, 'serve', '--json', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((done) => child.once('exit', done));
    const line = await new Promise<string>((done, fail) => {
      child.stdout.once('data', (d: Buffer) => done(d.toString()));
      child.once('exit', (code) => fail(new Error(`baton serve exited (${code})`)));
    });
    const answer = await firstAgents(new URL((JSON.parse(line) as { url: string }).url));
    child.kill('SIGTERM');
    await exited;
    expect(answer.ok).toBe(true);
    expect(JSON.parse(await readFile(record, 'utf8'))).toEqual([SERVE_BUNDLE]);
  }, 60_000);

  it('its shipped code cache already holds what a new host runs to its page\'s first screen (the build warms it with a real host start)', async () => {
    // The first start in this data dir makes the store and the index, as the build's first warm-up does.
    await firstScreenCache();
    // The bundle compiled with its shipped cache, then a cache made again after the first screen:
    // it holds every function compiled by then. Functions the shipped cache lacked were compiled
    // while the page waited, and the new cache is that much bigger (a cache of the compile alone,
    // or of `--help`, is under half of it).
    const second = await firstScreenCache();
    expect(second.answers['agents:list']?.ok).toBe(true);
    expect(second.answers['sessions:list']?.ok).toBe(true);
    expect(second.rejected).toBe(false);
    expect(second.after / second.shipped).toBeLessThan(1.1);
  }, 60_000);

  it('answers `serve --help` and its refusals as the whole CLI does, without the bundle or with a foreign cache; other commands never run it', async () => {
    const copies = join(dir, 'copies');
    const variants = {
      built: installLauncherCopy(copies, 'built', () => undefined),
      'no serve bundle': installLauncherCopy(copies, 'none', (cli: string) => rmSync(join(cli, 'baton-serve.cjs'))),
      'foreign cache': installLauncherCopy(copies, 'cache', (cli: string) => writeFileSync(join(cli, 'baton-serve.cjs.cache'), Buffer.alloc(4096, 7))),
    };
    const baton = async (copy: string, args: string[]) => {
      try {
        const { stdout, stderr } = await run(process.execPath, [join(copy, 'bin', 'baton.js'), ...args], { env, cwd: dir });
        return { code: 0, stdout, stderr };
      } catch (error) {
        const failed = error as { code: number; stdout: string; stderr: string };
        return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
      }
    };
    const answers: Record<string, unknown> = {};
    for (const [name, copy] of Object.entries(variants)) {
      answers[name] = [await baton(copy, ['serve', '--help']), await baton(copy, ['serve', '--port', 'x']), await baton(copy, ['serve', '--port', '70000', '--json'])];
    }
    const [help, badPort, badPortJson] = answers.built as { code: number; stdout: string; stderr: string }[];
    expect(help).toMatchObject({ code: 0 });
    expect(help!.stdout).toContain('Usage: baton serve');
    expect(badPort!.code).toBe(2);
    expect(JSON.parse(badPortJson!.stdout)).toMatchObject({ ok: false, code: 'BAD_ARGUMENT' });
    for (const name of Object.keys(variants)) expect(answers[name], name).toEqual(answers.built);

    // A serve bundle that throws: `serve` runs it, `list` and the top-level help do not.
    const broken = installLauncherCopy(copies, 'broken', (cli: string) => writeFileSync(join(cli, 'baton-serve.cjs'), 'throw new Error("the serve bundle ran");'));
    expect((await baton(broken, ['serve', '--help'])).stderr).toContain('the serve bundle ran');
    const list = await baton(broken, ['list', '--json', '--no-host', '--no-agents']);
    expect(list.stderr).not.toContain('the serve bundle ran');
    expect(JSON.parse(list.stdout)).toMatchObject({ ok: true });
    expect((await baton(broken, ['--help'])).stdout).toContain('serve');
  }, 120_000);
});
