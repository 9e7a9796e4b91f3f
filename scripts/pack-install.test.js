// The installable package: `npm pack` holds only what runs (the built CLI, its wasm grammar and
// the built app), and `npm install -g` of that tarball into a temporary prefix, without
// devDependencies, gives a `baton` whose --version, serve and handoff work. Needs the build
// (scripts/test.sh builds before the unit tests); a missing build fails here with that hint.
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** What the package may hold: files under these, plus npm's own package.json and README. */
const SHIPPED = [/^bin\/(baton\.js|load-cli\.js|exit-when-flushed\.js|host-socket\.js|package\.json)$/, /^dist\/cli\/(baton\.cjs|baton\.cjs\.cache|baton-handoff\.cjs|baton-handoff\.cjs\.cache|baton-handoff-fast\.cjs|baton-handoff-fast\.cjs\.cache|baton-list\.cjs|baton-list\.cjs\.cache|baton-key-read\.cjs|baton-key-read\.cjs\.cache|baton-list-local\.cjs|baton-list-local\.cjs\.cache|baton-resume\.cjs|baton-resume\.cjs\.cache|baton-picker\.cjs|baton-picker\.cjs\.cache|baton-show\.cjs|baton-show\.cjs\.cache|baton-zod\.cjs|baton-zod\.cjs\.cache|baton-secretlint\.cjs|baton-secretlint\.cjs\.cache|baton-serve\.cjs|baton-serve\.cjs\.cache|scan-worker\.cjs|tree-sitter\.wasm|tree-sitter-bash\.wasm)$/, /^out\/(main|preload|renderer)\//, /^(package\.json|README\.md|LICENSE)$/];

let dir;
let pack;
let baton;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'baton.cjs')) || !existsSync(join(ROOT, 'out', 'renderer', 'index.html'))) {
    throw new Error('the build is missing: run npm run build first (npm test does)');
  }
  dir = await mkdtemp(join(tmpdir(), 'baton-pack-'));
  const { stdout } = await run(NPM, ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  pack = JSON.parse(stdout)[0];
  // The cache from this install is offline-first: the registry is asked only for what it lacks.
  await run(NPM, ['install', '-g', join(dir, pack.filename), '--prefix', join(dir, 'prefix'), '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: dir });
  baton = join(dir, 'prefix', 'bin', 'baton');
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function env() {
  return { ...process.env, BATON_HOME: join(dir, 'data'), XDG_RUNTIME_DIR: '', DISPLAY: '', WAYLAND_DISPLAY: '' };
}

function serve() {
  return new Promise((resolve, reject) => {
    const child = spawn(baton, ['serve', '--json', '--port', '0'], { cwd: dir, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`baton serve printed no URL in 20 s: ${err}`)), 20_000);
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      resolve({ url: JSON.parse(line).url, stop: () => new Promise((done) => (child.exitCode !== null ? done() : (child.once('exit', done), child.kill('SIGTERM')))) });
    });
  });
}

describe('npm pack and a global install', () => {
  it('packs only what runs: the CLI bundle, its code cache and wasm grammar, and the built app', () => {
    const files = pack.files.map((f) => f.path);
    const stray = files.filter((f) => !SHIPPED.some((re) => re.test(f)));
    expect(stray).toEqual([]);
    // Every bundle and code cache the build writes ships: a launcher that finds one missing
    // silently takes its slower path (the fast handoff's bundle was left out once).
    const built = readdirSync(join(ROOT, 'dist', 'cli')).filter((f) => !f.endsWith('.map')).map((f) => `dist/cli/${f}`);
    expect(built).toContain('dist/cli/baton-handoff-fast.cjs');
    for (const needed of ['bin/baton.js', 'bin/load-cli.js', 'bin/exit-when-flushed.js', 'bin/host-socket.js', 'bin/package.json', ...built, 'out/main/index.js', 'out/renderer/index.html']) {
      expect(files).toContain(needed);
    }
    expect(files.some((f) => f.endsWith('.map') || f.startsWith('src/') || f.startsWith('node_modules/'))).toBe(false);
    // The closing note of issue 18 quotes these (printed by the test run).
    process.stdout.write(`packed ${pack.filename}: ${pack.size} bytes, ${pack.entryCount} files (${pack.unpackedSize} bytes unpacked)\n`);
  });

  it('installed without devDependencies: baton --version', async () => {
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
    const installed = join(dir, 'prefix', 'lib', 'node_modules', 'baton', 'node_modules');
    for (const dev of Object.keys(pkg.devDependencies)) expect(existsSync(join(installed, dev)), dev).toBe(false);
    const { stdout } = await run(baton, ['--version'], { env: env() });
    expect(stdout.trim()).toBe(pkg.version);
  });

  it('a cold baton list from the package reads its sessions in the scan workers beside the bundle, as the in-thread scan would', async () => {
    const SESSIONS = 3_000;
    // More new sessions than POOL_MIN_FILES (512): the scan starts its worker pool. Twelve batches,
    // not two: this thread shares the queue while the workers load, and on a loaded machine it
    // finished 600 sessions before a worker had loaded (no worker answered, CI 2026-12-01).
    const home = join(dir, 'home');
    const project = join(home, '.claude', 'projects', '-home-dev-pack');
    await mkdir(project, { recursive: true });
    for (let i = 0; i < SESSIONS; i++) {
      const id = `aaaaaaaa-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const line = (type, uuid, message) => JSON.stringify({ parentUuid: null, isSidechain: false, cwd: '/home/dev/pack', sessionId: id, version: '2.1.39', gitBranch: 'main', type, uuid, timestamp: new Date(Date.UTC(2026, 10, 1, 0, 0, i)).toISOString(), message });
      // One prompt with a token shaped like GitHub's: secretlint's preset (a side bundle beside the list bundle) names it.
      const prompt = i === 7 ? `push with ${'gh'}p_aB3dE5fG7hJ9kL2mN4pQ6rS8tV0wX1yZaB3d` : `prompt ${i}`;
      await writeFile(join(project, `${id}.jsonl`), `${line('user', `${id}-u`, { role: 'user', content: prompt })}\n${line('assistant', `${id}-a`, { role: 'assistant', id: `m-${i}`, model: 'claude-opus-4-6', content: [{ type: 'text', text: 'ok' }] })}\n`);
    }
    const list = async (extra) => {
      await rm(join(dir, 'list-data'), { recursive: true, force: true });
      const trace = join(dir, `trace-${extra.BATON_SCAN_WORKERS ?? 'default'}.jsonl`);
      const { stdout } = await run(baton, ['list', '--json', '--no-host'], { env: { ...env(), HOME: home, BATON_HOME: join(dir, 'list-data'), BATON_PHASE_TRACE: trace, ...extra }, maxBuffer: 64 * 1024 * 1024 });
      const listing = JSON.parse(stdout);
      delete listing.agentScan.ms;
      return { listing, marks: JSON.parse(await readFile(trace, 'utf8')).marks };
    };
    const pooled = await list({});
    const alone = await list({ BATON_SCAN_WORKERS: '0' });
    expect(pooled.marks).toHaveProperty('scan-worker-answered');
    expect(alone.marks).not.toHaveProperty('scan-worker-answered');
    expect(pooled.listing.total).toBe(SESSIONS);
    expect(pooled.listing).toEqual(alone.listing);
    const titles = alone.listing.groups.flatMap((g) => g.sessions.map((s) => s.title));
    expect(titles).toContain('push with [REDACTED:github]');
  });

  it('baton serve from the package serves the built UI, and baton handoff hands a session to it', async () => {
    const host = await serve();
    try {
      const page = await fetch(host.url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      const messages = join(dir, 'messages.jsonl');
      await writeFile(messages, '{"role":"user","content":"Ship the package"}\n{"role":"assistant","content":"Packed and installed."}\n');
      const { stdout } = await run(baton, ['handoff', '--cwd', dir, '--title', 'From the package', '--messages', messages, '--no-launch', '--json'], { env: env() });
      const answer = JSON.parse(stdout);
      expect(answer).toMatchObject({ command: 'handoff', ok: true, category: 'accepted' });
      // The risk policy's bash grammar (wasm beside the bundle) loads from the installed package.
      const explain = await new Promise((resolve, reject) => {
        const child = execFile(baton, ['policy', 'explain', '--json'], { env: env() }, (error, out) => (error && error.code !== 0 && !out ? reject(error) : resolve(JSON.parse(out))));
        child.stdin.end(JSON.stringify({ tool: 'Bash', input: { command: 'git push --force origin main' }, cwd: dir }));
      });
      expect(explain).toMatchObject({ ok: true });
      expect(JSON.stringify(explain)).toMatch(/high/);
    } finally {
      await host.stop();
    }
  });
});
