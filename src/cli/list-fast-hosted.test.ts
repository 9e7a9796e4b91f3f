import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claude, claudeLogPath, writeLog } from '../core/importers/test-fixtures/build-logs.js';
import { connectEndpoint } from '../core/transport/client.js';
import { readExistingTokenSync, resolveEndpoint } from '../core/transport/endpoint.js';

/**
 * `baton list --json` from the built launcher with a real `baton serve` on the same data dir: the
 * fast bundle (dist/cli/baton-list.cjs) asks the host and copies the host's rendered listing file
 * to fd 1 with synchronous writes (fd-copy.ts). What reaches the pipe is that file byte for byte,
 * and a reader that stops early (`| head`) ends the command with exit 0 and nothing on stderr.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const BATON = join(ROOT, 'bin', 'baton.js');
let root: string;
let env: NodeJS.ProcessEnv;
let host: ChildProcess | undefined;

const idOf = (i: number) => `eeeeeeee-0000-4000-8000-${String(i).padStart(12, '0')}`;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'baton-list.cjs'))) throw new Error('dist/cli/baton-list.cjs is missing: run npm run build:node first');
  root = await mkdtemp(join(tmpdir(), 'baton-list-fast-hosted-'));
  const home = join(root, 'home');
  env = { ...process.env, HOME: home, BATON_HOME: join(root, 'data'), XDG_RUNTIME_DIR: join(root, 'run'), DISPLAY: '', WAYLAND_DISPLAY: '' };
  // ~900 rows: a listing of several frames, so the host answers with the path of its file.
  for (let i = 0; i < 900; i++) {
    const cwd = `/home/dev/q${i % 5}`;
    const id = idOf(i);
    await writeLog(claudeLogPath(home, cwd, id), [
      claude.user({ uuid: `${id}-u`, cwd, sessionId: id }, `prompt ${i} "quoted" ✓ 😀 ${'z'.repeat(i % 170)}`),
      claude.assistant({ uuid: `${id}-a`, parentUuid: `${id}-u`, cwd, sessionId: id }, `${id}-m`, claude.text('ok')),
    ]);
  }
  host = spawn(process.execPath, [BATON, 'serve', '--json', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((ready, fail) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(new Error(`baton serve printed nothing in 30 s: ${err}`)), 30_000);
    host!.stderr!.on('data', (d) => (err += d));
    host!.stdout!.on('data', (d) => {
      out += d;
      if (!out.includes('\n')) return;
      clearTimeout(timer);
      ready();
    });
  });
  // The address is printed before the host's services start (serve.ts: modules, store, first scan),
  // and the CLI gives a host 1 s to connect (HOST_CONNECT_TIMEOUT_MS), then scans itself: a loaded
  // machine's just-started host can miss that. The tests start once the host has answered a listing.
  await untilHostAnswers(join(root, 'data'));
}, 120_000);

/** Until the host answers `candidates.list` (its services up, its first scan done), with budgets far beyond the CLI's. */
async function untilHostAnswers(dataDir: string): Promise<void> {
  const endpoint = resolveEndpoint(dataDir, env);
  const end = Date.now() + 60_000;
  for (;;) {
    try {
      const client = await connectEndpoint({ endpoint, token: readExistingTokenSync(endpoint.tokenPath)!, timeoutMs: 30_000 });
      try {
        // One row: answered in the frame, no listing file left behind.
        if ((await client.request('candidates.list', { agents: true, limit: 1 }, { timeoutMs: 60_000 })).ok) return;
      } finally {
        client.close();
      }
    } catch (error) {
      if (Date.now() > end) throw error;
    }
    if (Date.now() > end) throw new Error('the host answered no listing in 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
}

afterAll(async () => {
  if (host && host.exitCode === null) await new Promise((done) => (host!.once('exit', done), host!.kill('SIGTERM')));
  await rm(root, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** `baton list ...args` as a child whose stdout is a pipe to us; `stopAfter` bytes: we stop reading and close our end. */
function list(args: string[], stopAfter?: number): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BATON, 'list', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let got = 0;
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out.push(chunk);
      got += chunk.length;
      if (stopAfter !== undefined && got >= stopAfter) child.stdout.destroy();
    });
    child.stderr.on('data', (d) => (err += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout: Buffer.concat(out), stderr: err }));
  });
}

describe('baton list --json through a running host (the fast bundle)', () => {
  it('prints the host\'s listing file byte for byte through a pipe, the same document as the scan without the host', async () => {
    const hosted = await list(['--json']);
    expect(hosted.stderr).toBe('');
    expect(hosted.code).toBe(0);
    const dir = join(root, 'data', 'listings');
    const files = await Promise.all((await readdir(dir)).filter((f) => f.endsWith('.json')).map(async (f) => ({ path: join(dir, f), mtime: (await stat(join(dir, f))).mtimeMs })));
    expect(files.length).toBeGreaterThan(0);
    const newest = files.sort((a, b) => b.mtime - a.mtime)[0]!.path;
    expect(hosted.stdout.equals(await readFile(newest))).toBe(true);
    const doc = JSON.parse(hosted.stdout.toString('utf8')) as { total: number; groups: Array<{ sessions: Array<{ id: string }> }> };
    expect(doc.total).toBe(900);
    const local = JSON.parse((await list(['--json', '--no-host'])).stdout.toString('utf8')) as typeof doc;
    const ids = (d: typeof doc) => d.groups.flatMap((g) => g.sessions.map((s) => s.id)).sort();
    expect(ids(doc)).toEqual(ids(local));
    // One frame (--limit): the answer's text, also through fd 1.
    const limited = await list(['--json', '--limit', '3']);
    expect(limited.code).toBe(0);
    expect(JSON.parse(limited.stdout.toString('utf8'))).toMatchObject({ total: 900 });
  }, 120_000);

  it('reads the token and the host\'s file synchronously: the process ends with the threads of `node -e ""` (no thread pool)', async () => {
    // Linux: the thread count from /proc at exit. The thread pool's round trips (the token's open,
    // stat, read and close, then the file's open and close) were a tenth of a hosted listing.
    const preload = join(root, 'threads-at-exit.cjs');
    await writeFile(preload, "process.on('exit', () => require('node:fs').writeFileSync(process.env.THREADS_OUT, String(require('node:fs').readdirSync('/proc/self/task').length)));\n");
    const threadsOf = (args: string[]): number => {
      const out = join(root, `threads-${Math.random().toString(36).slice(2)}`);
      execFileSync(process.execPath, ['-r', preload, ...args], { env: { ...env, THREADS_OUT: out }, stdio: 'ignore' });
      return Number(readFileSync(out, 'utf8'));
    };
    const plain = threadsOf(['-e', '']);
    expect(plain).toBeGreaterThan(0);
    expect(threadsOf([BATON, 'list', '--json'])).toBe(plain);
  }, 60_000);

  it('answers with neither node:crypto nor node:fs/promises loaded (the handshake\'s proofs are hmac-sha256.ts, its nonce /dev/urandom\'s) and never builds process.stderr', async () => {
    // Node's own record of the built-in modules the process loaded, written at exit. node:crypto
    // (17 modules) and node:fs/promises (12, readline's among them) were 5-15 ms of its CPU. And
    // whether process.stderr was built (its getter wrapped): node:net's destroy of the host's
    // socket built it, a whole net.Socket on this pipe (list-host.ts closeSoon).
    const preload = join(root, 'modules-at-exit.cjs');
    await writeFile(
      preload,
      "let stderrBuilt = false; const d = Object.getOwnPropertyDescriptor(process, 'stderr');\n" +
        "Object.defineProperty(process, 'stderr', { configurable: true, enumerable: d.enumerable, get() { stderrBuilt = true; return d.get.call(process); } });\n" +
        "process.on('exit', () => require('node:fs').writeFileSync(process.env.MODULES_OUT, JSON.stringify({ modules: process.moduleLoadList, stderrBuilt })));\n",
    );
    const out = join(root, 'modules-hosted.json');
    for (const args of [['--limit', '3'], []]) {
      const trace = join(root, `trace-${args.length}.jsonl`);
      const stdout = execFileSync(process.execPath, ['-r', preload, BATON, 'list', '--json', ...args], { env: { ...env, MODULES_OUT: out, BATON_PHASE_TRACE: trace }, maxBuffer: 64 * 1024 * 1024 });
      expect(JSON.parse(stdout.toString('utf8'))).toMatchObject({ ok: true, total: 900 });
      expect((JSON.parse(readFileSync(out, 'utf8')) as { stderrBuilt: boolean }).stderrBuilt).toBe(false);
      // It asked the host, and the host (node:crypto: host-auth.ts) accepted its proof and proved
      // its own: a failed handshake falls back to a scan that prints the same document.
      const { marks } = JSON.parse(readFileSync(trace, 'utf8').trim().split('\n').at(-1)!) as { marks: Record<string, number> };
      expect(marks['host-connected']).toBeGreaterThan(0);
    }
    const loaded = (JSON.parse(readFileSync(out, 'utf8')) as { modules: string[] }).modules;
    expect(loaded).not.toContain('NativeModule crypto');
    expect(loaded).not.toContain('NativeModule fs/promises');
  }, 60_000);

  it('the fast bundle\'s shipped code cache already holds the hosted path: the connection, the handshake and the copy (the build warms it against a host)', async () => {
    // The bundle compiled with its shipped cache answers one hosted listing; a cache made again
    // afterwards holds every function compiled by then. Warmed by the declined path alone, the
    // cache lacked the client's whole exchange, which every hosted `baton list --json` then
    // compiled while it ran (bench/README.md, "Seventeenth sitting"): the new cache was 2x as big.
    const loader = join(ROOT, 'bin', 'load-cli.js');
    const script = `const { compileFastList, FAST_LIST_CACHE } = require(${JSON.stringify(loader)});
const fast = compileFastList();
fast.cli.tryFastList(['node', 'baton', 'list', '--json', '--limit', '5']).then((hosted) => process.stderr.write(JSON.stringify({ hosted, rejected: fast.script.cachedDataRejected, shipped: require('node:fs').statSync(FAST_LIST_CACHE).size, after: fast.script.createCachedData().length })));`;
    const stderr = await new Promise<string>((done, fail) => {
      const child = spawn(process.execPath, ['-e', script], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      child.on('error', fail);
      child.on('close', () => done(err));
    });
    const result = JSON.parse(stderr) as { hosted: boolean; rejected: boolean; shipped: number; after: number };
    expect(result.hosted).toBe(true);
    expect(result.rejected).toBe(false);
    expect(result.after / result.shipped).toBeLessThan(1.1);
  }, 60_000);

  it('a reader that stops after the first bytes (`| head`) ends it with exit 0 and nothing on stderr', async () => {
    const cut = await list(['--json'], 1);
    expect(cut.stderr).toBe('');
    expect(cut.code).toBe(0);
    expect(cut.stdout.length).toBeGreaterThan(0);
  }, 60_000);
});
