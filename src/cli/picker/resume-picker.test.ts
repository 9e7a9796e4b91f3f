import { spawn } from 'node:child_process';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claude, claudeLogPath, writeLog } from '../../core/importers/test-fixtures/build-logs.js';
import type { ListGroup, ListItem } from '../../core/importers/candidate-list.js';
import type { IndexRow } from '../../shared/session.js';
import { PICKER_MAX_ROWS, PickerModel } from './picker-options.js';
import { startHostServices } from '../../core/host/host-services.js';
import { BROWSER_HOST_CAPABILITIES } from '../../core/host/capabilities.js';

/** The picker in a real pseudo-terminal (util-linux `script`), driving the real CLI from its sources. */
const CLI = join(import.meta.dirname, '..', 'run.ts');
const REPO = join(import.meta.dirname, '..', '..', '..');
let root: string;

const idOf = (i: number) => `eeeeeeee-0000-4000-8000-${String(i).padStart(12, '0')}`;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-picker-'));
  const home = join(root, 'home');
  for (let i = 0; i < 12; i++) {
    const cwd = i % 2 === 0 ? '/home/dev/api' : '/home/dev/web';
    // One hostile title: a terminal escape (clear screen, set the window title) in a prompt.
    const prompt = i === 5 ? 'evil \u001b[2J\u001b]0;pwned\u0007 title' : `task number ${i} in ${cwd.slice(10)}`;
    await writeLog(claudeLogPath(home, cwd, idOf(i)), [
      claude.user({ uuid: `${i}-u`, cwd, sessionId: idOf(i), timestamp: new Date(Date.UTC(2026, 10, 1, 10, i)).toISOString() }, prompt),
      claude.assistant({ uuid: `${i}-a`, parentUuid: `${i}-u`, cwd, sessionId: idOf(i), timestamp: new Date(Date.UTC(2026, 10, 1, 10, i, 30)).toISOString() }, `${i}-m`, claude.text('ok')),
    ]);
  }
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const strip = (s: string) => s.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '\n');

/** `baton resume` in a pty: waits for `ready` on screen, types `keys`, returns everything the terminal showed. */
type Host = Awaited<ReturnType<typeof startHostServices>>;

/** A host in this process on the test's data directory, its socket where a picker looks (HOME, XDG_RUNTIME_DIR), both restored after. */
async function withHost(use: (host: Host) => Promise<void>): Promise<void> {
  const saved = { home: process.env.HOME, runtime: process.env.XDG_RUNTIME_DIR };
  process.env.HOME = join(root, 'home');
  process.env.XDG_RUNTIME_DIR = join(root, 'run');
  await mkdir(join(root, 'run'), { recursive: true, mode: 0o700 });
  const host = await startHostServices({ dataDir: join(root, 'data'), kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
  try {
    await use(host);
  } finally {
    await host.close();
    process.env.HOME = saved.home;
    if (saved.runtime === undefined) delete process.env.XDG_RUNTIME_DIR;
    else process.env.XDG_RUNTIME_DIR = saved.runtime;
  }
}

/** A key to type, or a text to wait for on screen (since the picker started) before the next key. */
type PtyStep = string | RegExp;

function inPty(ready: RegExp, keys: PtyStep[], runner = `node --import tsx ${JSON.stringify(CLI)}`, at = root, extraEnv: Record<string, string> = {}): Promise<{ code: number; screen: string; raw: string }> {
  return new Promise((resolve, fail) => {
    const command = `stty cols 120 rows 30; exec ${runner} resume`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: REPO,
      env: { ...process.env, HOME: join(at, 'home'), BATON_HOME: join(at, 'data'), XDG_RUNTIME_DIR: join(at, 'run'), TERM: 'xterm-256color', ...extraEnv },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let raw = '';
    let typed = false;
    let ended = false;
    const timer = setTimeout(() => {
      ended = true;
      child.kill('SIGKILL');
      fail(new Error(`the picker did not finish; screen:\n${strip(raw)}`));
    }, 30_000);
    child.stdout.on('data', async (d: Buffer) => {
      raw += d.toString('utf8');
      if (!typed && ready.test(strip(raw))) {
        typed = true;
        for (const k of keys) {
          if (k instanceof RegExp) {
            while (!ended && !k.test(strip(raw))) await new Promise((r) => setTimeout(r, 50));
            continue;
          }
          child.stdin.write(k);
          await new Promise((r) => setTimeout(r, 250));
        }
      }
    });
    child.on('exit', (code) => {
      ended = true;
      clearTimeout(timer);
      resolve({ code: code ?? 1, screen: strip(raw), raw });
    });
  });
}

describe('warmPicker (the resume bundle\'s code-cache warm-up)', () => {
  it('draws the first frame off screen and cancels', async () => {
    const { warmPicker } = await import('./warm-picker.js');
    const written = await warmPicker();
    expect(written).toContain('warm the code cache');
    expect(written).toContain('1 in all');
  });
});

describe('baton resume picker in a real pty', () => {
  it('shows the sessions grouped by directory, filters by the words typed, and prints the picked session\'s own resume command', async () => {
    const { code, screen, raw } = await inPty(/task number 10/, ['number 7', '\r']);
    expect(code).toBe(0);
    // First screen: newest first, each row led by its directory.
    expect(screen).toMatch(/\/home\/dev\/api\s+task number 10 in api/);
    expect(screen).toMatch(/\/home\/dev\/web\s+task number 11 in web/);
    expect(screen).toMatch(/12 in all/);
    // The hostile title is shown escaped, never sent to the terminal raw.
    expect(raw).not.toContain('\u001b]0;pwned');
    expect(raw).not.toContain('\u001b[2J');
    expect(screen).toContain('Continue in: cd "/home/dev/web"');
    expect(screen).toContain(`claude --resume ${idOf(7)}`);
  }, 60_000);

  it('with a host running: the first screen from its first page, then a search over the whole listing', async () => {
    await withHost(async (host) => {
      await host.candidates.ready;
      const { code, screen } = await inPty(/task number 10/, ['number 3 web', '\r']);
      expect(code).toBe(0);
      expect(screen).toContain('Continue in: cd "/home/dev/web"');
      expect(screen).toContain(`claude --resume ${idOf(3)}`);
    });
  }, 60_000);

  it('from the built launcher with a host running: the picker bundle alone draws it, the socket connects before clack evaluates, and neither node:crypto nor node:fs/promises loads', async () => {
    const launcher = join(REPO, 'bin', 'baton.js');
    if (!existsSync(join(REPO, 'dist', 'cli', 'baton-resume.cjs'))) throw new Error('the build is missing: run npm run build:node first (npm test does)');
    await withHost(async (host) => {
      await host.candidates.ready;
      const trace = join(root, 'picker-trace.jsonl');
      const modules = join(root, 'picker-modules.json');
      const hook = join(root, 'modules-at-exit.cjs');
      const bundles = join(root, 'picker-bundles.json');
      // Records every bundle the launcher reads (bin/load-cli.js reads them with fs.readFileSync).
      await writeFile(
        hook,
        "const fs = require('node:fs'); const read = fs.readFileSync; const seen = []; fs.readFileSync = function (file, ...rest) { if (typeof file === 'string' && file.endsWith('.cjs')) seen.push(require('node:path').basename(file)); return read.call(this, file, ...rest); };\n" +
          // Whether anything built process.stderr (its getter makes the stream on first use).
          "const stderr = Object.getOwnPropertyDescriptor(process, 'stderr'); Object.defineProperty(process, 'stderr', { configurable: true, enumerable: stderr.enumerable, get() { if (!seen.includes('process.stderr')) seen.push('process.stderr'); return stderr.get.call(this); } });\n" +
          // …and the first frame's place among them (its first write showing a row).
          "const write = require('node:net').Socket.prototype.write; require('node:net').Socket.prototype.write = function (chunk, ...rest) { if (!seen.includes('frame') && String(chunk).replace(/\\u001b\\[[0-9;?]*[A-Za-z]/g, '').includes('task number 10')) seen.push('frame'); return write.call(this, chunk, ...rest); };\n" +
          `process.on('exit', () => { fs.writeFileSync(${JSON.stringify(modules)}, JSON.stringify(process.moduleLoadList)); fs.writeFileSync(${JSON.stringify(bundles)}, JSON.stringify(seen)); });\n`,
      );
      const { code, screen } = await inPty(/task number 10/, ['\u001b'], `node --require ${JSON.stringify(hook)} ${JSON.stringify(launcher)}`, root, { BATON_PHASE_TRACE: trace });
      expect(code).toBe(1);
      expect(screen).toMatch(/\/home\/dev\/api\s+task number 10 in api/);
      const { marks } = JSON.parse((await readFile(trace, 'utf8')).trim().split('\n').at(-1)!) as { marks: Record<string, number> };
      // clack's evaluation (10+ ms) overlaps the host's hello and answers instead of delaying the connect.
      expect(marks['host-connecting']).toBeGreaterThan(0);
      expect(marks['prompts-loading']).toBeGreaterThan(marks['host-connecting']!);
      // The first screen came from the host: its handshake passed (a failed one falls back to a
      // local scan, which draws the same screen) and its answer was the listing.
      expect(marks['host-connected']).toBeGreaterThan(marks['host-connecting']!);
      expect(marks['listing-hosted']).toBeGreaterThan(marks['host-connected']!);
      expect(marks['picker-drawn']).toBeGreaterThan(marks['listing-hosted']!);
      const loaded = JSON.parse(await readFile(modules, 'utf8')) as string[];
      expect(loaded).not.toContain('NativeModule crypto');
      // node:fs/promises loads on first use in the resume bundle (scripts/build-cli.js): a hosted first screen calls none of it.
      expect(loaded).not.toContain('NativeModule fs/promises');
      // The first screen came from the small hosted-picker bundle (picker-main.ts): the resume
      // bundle (the store, the scanner, commander) was never read. And process.stderr was never
      // built: clack's styleText is style-text.ts's, without node:util's colour module.
      const seen = JSON.parse(await readFile(bundles, 'utf8')) as string[];
      expect(seen.filter((s) => s.endsWith('.cjs'))).toEqual(['baton-picker.cjs']);
      expect(seen.filter((s) => !s.endsWith('.cjs')).slice(0, 1)).toEqual(['frame']);
      expect(loaded).not.toContain('NativeModule internal/util/colors');
    });
  }, 60_000);

  it('the hosted picker bundle\'s shipped code cache already holds its first screen\'s request to a host (the build warms it against one)', async () => {
    const loader = join(REPO, 'bin', 'load-cli.js');
    if (!existsSync(join(REPO, 'dist', 'cli', 'baton-picker.cjs'))) throw new Error('the build is missing: run npm run build:node first (npm test does)');
    await withHost(async (host) => {
      await host.candidates.ready;
      // The bundle compiled with its shipped cache draws off screen and asks the host for the first
      // page; a cache made again afterwards holds every function compiled by then. Warmed off
      // screen alone, the cache lacked the host's client, compiled before every hosted first frame.
      const script = `const { compilePicker, PICKER_CACHE } = require(${JSON.stringify(loader)});
const picker = compilePicker();
(async () => {
  await picker.cli.warmPicker();
  const hosted = await picker.cli.warmHostedListing();
  process.stderr.write(JSON.stringify({ hosted, rejected: picker.script.cachedDataRejected, shipped: require('node:fs').statSync(PICKER_CACHE).size, after: picker.script.createCachedData().length }));
})();`;
      const stderr = await new Promise<string>((done, fail) =>
        execFile(process.execPath, ['-e', script], { cwd: REPO, env: { ...process.env, HOME: join(root, 'home'), BATON_HOME: join(root, 'data'), XDG_RUNTIME_DIR: join(root, 'run') } }, (error, _stdout, err) =>
          error && !err.startsWith('{') ? fail(error) : done(err),
        ),
      );
      const result = JSON.parse(stderr) as { hosted: boolean; rejected: boolean; shipped: number; after: number };
      expect(result.hosted).toBe(true);
      expect(result.rejected).toBe(false);
      expect(result.after / result.shipped).toBeLessThan(1.1);
    });
  }, 60_000);

  it('from the built launcher (its resume bundle, bin/load-cli.js): the same first screen and the same pick', async () => {
    const launcher = join(REPO, 'bin', 'baton.js');
    if (!existsSync(join(REPO, 'dist', 'cli', 'baton-resume.cjs'))) throw new Error('the build is missing: run npm run build:node first (npm test does)');
    const { code, screen } = await inPty(/task number 10/, ['number 7', '\r'], `node ${JSON.stringify(launcher)}`);
    expect(code).toBe(0);
    expect(screen).toMatch(/\/home\/dev\/api\s+task number 10 in api/);
    expect(screen).toMatch(/12 in all/);
    expect(screen).toContain(`claude --resume ${idOf(7)}`);
  }, 60_000);

  it('from the built launcher, clack measures the one-column first screen without a Unicode-property regex (text-width.ts)', async () => {
    const launcher = join(REPO, 'bin', 'baton.js');
    if (!existsSync(join(REPO, 'dist', 'cli', 'baton-resume.cjs'))) throw new Error('the build is missing: run npm run build:node first (npm test does)');
    // Records, at exit, every \\p{…} regex the process tested: fast-string-width's are compiled at their first test.
    const hook = join(root, 'unicode-regexes.cjs');
    const record = join(root, 'unicode-regexes.json');
    await writeFile(
      hook,
      "const used = new Set(); const test = RegExp.prototype.test; RegExp.prototype.test = function (s) { if (this.source.includes('\\\\p{')) used.add(this.source); return test.call(this, s); };\n" +
        // …and the bundles the launcher read: with no host's socket, the hosted picker's is not even compiled (bin/host-socket.js).
        "const fs = require('node:fs'); const read = fs.readFileSync; const bundles = []; fs.readFileSync = function (file, ...rest) { if (typeof file === 'string' && file.endsWith('.cjs')) bundles.push(require('node:path').basename(file)); return read.call(this, file, ...rest); };\n" +
        `process.on('exit', () => fs.writeFileSync(${JSON.stringify(record)}, JSON.stringify({ used: [...used], bundles })));\n`,
    );
    const { code, screen } = await inPty(/task number 10/, ['\u001b'], `node --require ${JSON.stringify(hook)} ${JSON.stringify(launcher)}`);
    expect(code).toBe(1);
    expect(screen).toMatch(/\/home\/dev\/api\s+task number 10 in api/);
    const { used, bundles } = JSON.parse(await readFile(record, 'utf8')) as { used: string[]; bundles: string[] };
    expect(used).toEqual([]);
    expect(bundles).toEqual(['baton-resume.cjs']);
  }, 60_000);

  it('Escape cancels: nothing resumed, exit 1', async () => {
    const { code, screen } = await inPty(/task number 10/, ['\u001b']);
    expect(code).toBe(1);
    expect(screen).not.toContain('Continue in');
  }, 60_000);

  it('without a terminal it asks for an id (exit 2) instead of waiting for keys', async () => {
    const result = await new Promise<{ code: number; stdout: string }>((resolve) =>
      execFile(process.execPath, ['--import', 'tsx', CLI, 'resume', '--json'], { cwd: REPO, env: { ...process.env, HOME: join(root, 'home'), BATON_HOME: join(root, 'data') } }, (error, stdout) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout }),
      ),
    );
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: false, code: 'BAD_ARGUMENT' });
  }, 60_000);
  it('from the built launcher with a host running: a search picks a Claude Code row, and a Baton session is claimed through the resume bundle (last: it adds a session)', async () => {
    const launcher = join(REPO, 'bin', 'baton.js');
    if (!existsSync(join(REPO, 'dist', 'cli', 'baton-picker.cjs'))) throw new Error('the build is missing: run npm run build:node first (npm test does)');
    await withHost(async (host) => {
      await host.candidates.ready;
      const env = { ...process.env, BATON_HOME: join(root, 'data') };
      const picked = await inPty(/task number 10/, ['number 3 web', '\r'], `node ${JSON.stringify(launcher)}`);
      expect(picked.code).toBe(0);
      expect(picked.screen).toContain('Continue in: cd "/home/dev/web"');
      expect(picked.screen).toContain(`claude --resume ${idOf(3)}`);
      // A Baton session, landed by a handoff: the picker bundle hands the chosen id to `baton resume ID`.
      const messages = join(root, 'baton-row.jsonl');
      await writeFile(messages, '{"role":"user","content":"a baton row to claim"}\n');
      await new Promise<void>((done, fail) =>
        execFile(process.execPath, [launcher, 'handoff', '--cwd', join(root, 'home'), '--title', 'zz baton row zz', '--messages', messages, '--no-launch', '--json', '--timeout', '0'], { cwd: REPO, env }, (error) => (error ? fail(error) : done())),
      );
      const claimed = await inPty(/zz baton row zz/, ['zz baton row', '\r'], `node ${JSON.stringify(launcher)}`);
      expect(claimed.code).toBe(0);
      expect(claimed.screen).toMatch(/The terminal now holds session \S+ \(epoch \d+/);
    });
  }, 90_000);
});

describe('baton resume picker without a host, from a trusted candidate index', () => {
  let big: string;
  const SESSIONS = PICKER_MAX_ROWS + 20;
  beforeAll(async () => {
    big = await mkdtemp(join(tmpdir(), 'baton-picker-index-'));
    const home = join(big, 'home');
    for (let i = 0; i < SESSIONS; i++) {
      const cwd = `/home/dev/p${i % 3}`;
      await writeLog(claudeLogPath(home, cwd, idOf(i)), [claude.user({ uuid: `${i}-u`, cwd, sessionId: idOf(i), timestamp: new Date(Date.UTC(2026, 10, 1, 10, 0, i)).toISOString() }, `picker row ${i} zz${i}zz`)]);
    }
    // Folders older than the racy window, then one listing writes and confirms the index.
    const walk = async (dir: string): Promise<void> => {
      for (const e of await readdir(dir, { withFileTypes: true })) if (e.isDirectory()) await walk(join(dir, e.name));
      await utimes(dir, Date.now() / 1000 - 3600, Date.now() / 1000 - 3600);
    };
    await walk(join(home, '.claude'));
    await new Promise<void>((done, fail) =>
      execFile(process.execPath, ['--import', 'tsx', CLI, 'list', '--json', '--no-host'], { cwd: REPO, env: { ...process.env, HOME: home, BATON_HOME: join(big, 'data'), XDG_RUNTIME_DIR: join(big, 'run') }, maxBuffer: 64 * 1024 * 1024 }, (error) => (error ? fail(error) : done())),
    );
  }, 120_000);
  afterAll(async () => {
    await rm(big, { recursive: true, force: true });
  });

  it('the resume bundle\'s code cache already holds the first screen\'s listing (the build warms it on an indexed corpus)', async () => {
    const loader = join(REPO, 'bin', 'load-cli.js');
    if (!existsSync(join(REPO, 'dist', 'cli', 'baton-resume.cjs'))) throw new Error('the build is missing: run npm run build:node first (npm test does)');
    // The bundle compiled with its shipped cache runs what a picker without a host runs before its
    // first frame; a cache made again afterwards holds every function compiled by then. Functions
    // the shipped cache lacked were compiled while the person waited (~11 ms of CPU at 20k
    // sessions, bench/README.md "Fifteenth sitting"), and the new cache is that much bigger.
    const script = `const { compileResume, RESUME_CACHE } = require(${JSON.stringify(loader)});
const resume = compileResume();
(async () => {
  await resume.cli.main(['node', 'baton', 'resume', '--json']);
  await resume.cli.warmPicker();
  const listing = await resume.cli.firstScreenListing();
  process.stderr.write(JSON.stringify({ rejected: resume.script.cachedDataRejected, shipped: require('node:fs').statSync(RESUME_CACHE).size, after: resume.script.createCachedData().length, total: listing.total }));
})();`;
    const { stderr } = await new Promise<{ stderr: string }>((done, fail) =>
      execFile(process.execPath, ['-e', script], { cwd: REPO, env: { ...process.env, HOME: join(big, 'home'), BATON_HOME: join(big, 'data'), XDG_RUNTIME_DIR: join(big, 'run') } }, (error, _stdout, stderr) =>
        error && !stderr.startsWith('{') ? fail(error) : done({ stderr }),
      ),
    );
    const result = JSON.parse(stderr) as { rejected: boolean; shipped: number; after: number; total: number };
    expect(result.rejected).toBe(false);
    expect(result.total).toBe(SESSIONS);
    expect(result.after / result.shipped).toBeLessThan(1.05);
  }, 60_000);

  it('from the built launcher: both listings open the store for reading, and neither node:fs/promises nor node:v8 loads', async () => {
    const launcher = join(REPO, 'bin', 'baton.js');
    if (!existsSync(join(REPO, 'dist', 'cli', 'baton-resume.cjs'))) throw new Error('the build is missing: run npm run build:node first (npm test does)');
    const hook = join(big, 'modules-at-exit.cjs');
    const record = join(big, 'modules.json');
    const trace = join(big, 'launcher-trace.jsonl');
    await writeFile(hook, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.moduleLoadList)));\n`);
    // Escape after the first frame: the whole listing (type-to-filter) has been read by then.
    const { code, screen } = await inPty(new RegExp(`picker row ${SESSIONS - 1} `), ['\u001b'], `node --require ${JSON.stringify(hook)} ${JSON.stringify(launcher)}`, big, { BATON_PHASE_TRACE: trace });
    expect(code).toBe(1);
    expect(screen).toMatch(new RegExp(`${SESSIONS} in all`));
    // The first screen came from the trusted index (not a scan, which writes its caches through node:fs/promises).
    expect(JSON.parse((await readFile(trace, 'utf8')).trim().split('\n').at(-1)!).marks).toHaveProperty('index-listing');
    const modules = JSON.parse(await readFile(record, 'utf8')) as string[];
    // The store opened for reading reads synchronously (open-for-reading.ts); node:v8 is the heap
    // cap's, loaded on first use (scripts/build-cli.js v8OnFirstUse).
    expect(modules).not.toContain('NativeModule internal/fs/promises');
    expect(modules).not.toContain('NativeModule v8');
  }, 60_000);

  it(`draws the newest rows of the index first (all ${SESSIONS} counted), then a search reaches a session beyond the first screen`, async () => {
    const trace = join(big, 'trace.jsonl');
    // Enter once the match shows (typed at once: a match beyond the first screen shows when the whole listing lands).
    const { code, screen } = await inPty(new RegExp(`picker row ${SESSIONS - 1} `), ['zz3zz', /picker row 3 zz3zz/, '\r'], undefined, big, { BATON_PHASE_TRACE: trace });
    expect(code).toBe(0);
    expect(screen).toMatch(new RegExp(`${SESSIONS} in all`));
    // Session 3 is among the oldest, found by the search over the whole listing (on the first screen or not).
    expect(screen).toContain(`claude --resume ${idOf(3)}`);
    expect(JSON.parse(await readFile(trace, 'utf8')).marks).toHaveProperty('index-listing');
  }, 60_000);
});

describe('PickerModel', () => {
  function groupsOf(n: number, dirs: number): { groups: ListGroup[]; parsed: () => number } {
    let parsed = 0;
    const groups: ListGroup[] = Array.from({ length: dirs }, (_, d) => ({ cwd: `/w/d${d}`, newestAt: dirs - d, items: [] as ListItem[] }));
    for (let i = 0; i < n; i++) {
      const row = { id: `claude:${i}`, cwd: `/w/d${i % dirs}`, title: `title ${i} ${i % 3 === 0 ? 'alpha' : 'beta'}`, updatedAt: '2026-11-01T10:00:00.000Z', messageCount: i, source: 'claude' } as IndexRow;
      groups[i % dirs]!.items.push({ cwd: row.cwd, at: 0, id: row.id, source: 'claude', text: () => JSON.stringify(row), row: () => (parsed++, row) });
    }
    return { groups, parsed: () => parsed };
  }

  it('parses only the first screen when nothing is typed, and says how many more there are', () => {
    const { groups, parsed } = groupsOf(5_000, 7);
    const options = new PickerModel(groups).options('');
    expect(options).toHaveLength(PICKER_MAX_ROWS + 1);
    expect(parsed()).toBe(PICKER_MAX_ROWS);
    expect(options.at(-1)).toMatchObject({ disabled: true, label: `… ${(5_000 - PICKER_MAX_ROWS).toLocaleString('en-US')} more: type to narrow` });
    expect(options[0]!.label.startsWith('/w/d0')).toBe(true);
  });

  it('counts the rows not here yet from the total, and searches the whole listing once it replaces the first screen', () => {
    const { groups } = groupsOf(40, 2);
    const firstScreen = groups.map((g) => ({ ...g, items: g.items.slice(0, 5) }));
    const model = new PickerModel(firstScreen, 40);
    expect(model.options('').at(-1)).toMatchObject({ disabled: true, label: '… 30 more: type to narrow' });
    expect(model.options('title 33')).toEqual([]);
    model.replace(groups);
    expect(model.options('title 33').map((o) => o.value)).toEqual(['claude:33']);
    expect(model.options('').some((o) => o.disabled)).toBe(false);
  });

  it('builds the options of a query once until the listing is replaced (clack asks three times before its first frame)', () => {
    const { groups } = groupsOf(40, 2);
    const model = new PickerModel(groups.map((g) => ({ ...g, items: g.items.slice(0, 5) })), 40);
    const first = model.options('');
    expect(model.options('')).toBe(first);
    expect(model.options('title')).not.toBe(first);
    expect(model.options('', 3)).toHaveLength(4);
    model.replace(groups);
    const whole = model.options('');
    expect(whole).not.toBe(first);
    expect(whole).toHaveLength(40);
  });

  it('matches every word in any order over title, directory and id, case-insensitively, keeping group order', () => {
    const { groups } = groupsOf(600, 4);
    const model = new PickerModel(groups);
    const hits = model.options('ALPHA d2');
    expect(hits.length).toBe(50); // i ≡ 2 (mod 4) and i ≡ 0 (mod 3): 600 / 12
    expect(hits.every((o) => o.label.includes('/w/d2') && o.label.includes('alpha'))).toBe(true);
    expect(model.options('d2 alpha').map((o) => o.value)).toEqual(hits.map((o) => o.value));
    expect(model.rowOf(hits[0]!.value)?.id).toBe(hits[0]!.value);
    expect(model.options('no such words')).toEqual([]);
  });
});

describe('pickSession: the whole listing landing after something was typed', () => {
  function listingOf(n: number): { groups: ListGroup[]; firstScreen: ListGroup[] } {
    const groups: ListGroup[] = [{ cwd: '/w/app', newestAt: n, items: [] }];
    for (let i = n - 1; i >= 0; i--) {
      const row = { id: `claude:${i}`, cwd: '/w/app', title: `row ${i} zz${i}zz`, updatedAt: '2026-11-01T10:00:00.000Z', messageCount: 1, source: 'claude' } as IndexRow;
      groups[0]!.items.push({ cwd: row.cwd, at: i, id: row.id, source: 'claude', text: () => JSON.stringify(row), row: () => row });
    }
    return { groups, firstScreen: [{ ...groups[0]!, items: groups[0]!.items.slice(0, 4) }] };
  }

  /** The picker on in-memory streams; `rest` resolves when the test lands the whole listing. */
  async function picker(n: number) {
    const { pickSession } = await import('./resume-picker.js');
    const { PassThrough } = await import('node:stream');
    const { groups, firstScreen } = listingOf(n);
    const input = new PassThrough();
    const output = new PassThrough();
    let screen = '';
    output.on('data', (chunk: Buffer) => (screen += chunk.toString('utf8')));
    let land!: () => void;
    const landed = new Promise<void>((r) => (land = r));
    const picked = pickSession(firstScreen, n, { input, output, rest: async () => (await landed, groups) });
    const settle = () => new Promise((r) => setTimeout(r, 50));
    await settle();
    return { picked, input, land, settle, screen: () => strip(screen), clear: () => (screen = '') };
  }

  it('filters what was typed against the whole listing as soon as it lands, without another key, and Enter picks the match', async () => {
    const p = await picker(40);
    p.input.write('zz17zz');
    await p.settle();
    // Row 17 is not on the first screen (rows 39..36): clack found nothing.
    expect(p.screen()).toContain('No matches found');
    p.clear();
    p.land();
    await p.settle();
    expect(p.screen()).toContain('row 17 zz17zz');
    expect(p.screen()).not.toContain('No matches found');
    p.input.write('\r');
    expect((await p.picked)?.id).toBe('claude:17');
  });

  it('keeps the focused row focused when the whole listing lands with nothing typed', async () => {
    const p = await picker(400);
    p.input.write('\u001b[B'); // down: the second row of the first screen (row 398)
    await p.settle();
    p.land();
    await p.settle();
    p.input.write('\r');
    expect((await p.picked)?.id).toBe('claude:398');
  });

  it('draws nothing once the person has chosen: a listing landing after Enter changes no answer', async () => {
    const p = await picker(40);
    p.input.write('\r');
    const chosen = await p.picked;
    p.clear();
    p.land();
    await p.settle();
    expect(chosen?.id).toBe('claude:39');
    expect(p.screen()).toBe('');
  });
});

describe('the resume bundle loads zod and secretlint from their side bundles (scripts/build-cli.js zodOnFirstUse, secretlintOnFirstUse)', () => {
  let side: string;
  /** Records, at exit, every bundle the launcher read (bin/load-cli.js reads them with fs.readFileSync) and whether zod initialised. */
  let hook: string;
  const record = () => join(side, 'read.json');
  const githubToken = 'gh' + 'p_' + 'aB3dE5fG7hJ9kL2mN4pQ6rS8tV0wX1yZaB3d';
  beforeAll(async () => {
    side = await mkdtemp(join(tmpdir(), 'baton-picker-side-'));
    for (let i = 0; i < 5; i++) {
      await writeLog(claudeLogPath(join(side, 'home'), '/home/dev/side', idOf(100 + i)), [claude.user({ uuid: `side-${i}-u`, cwd: '/home/dev/side', sessionId: idOf(100 + i), timestamp: new Date(Date.UTC(2026, 10, 2, 10, i)).toISOString() }, `side row ${i}`)]);
    }
    hook = join(side, 'read.cjs');
    await writeFile(
      hook,
      "const fs = require('node:fs'); const read = fs.readFileSync; const bundles = []; fs.readFileSync = function (file, ...rest) { if (typeof file === 'string' && file.endsWith('.cjs')) bundles.push(require('node:path').basename(file)); return read.call(this, file, ...rest); };\n" +
        // zod's core sets globalThis.__zod_globalConfig when its modules initialise.
        `process.on('exit', () => fs.writeFileSync(${JSON.stringify(record())}, JSON.stringify({ bundles, zod: '__zod_globalConfig' in globalThis })));\n`,
    );
  });
  afterAll(async () => {
    await rm(side, { recursive: true, force: true });
  });

  it('a picker that scans new sessions shows a key in a prompt redacted as before (secretlint from baton-secretlint.cjs); the first screen from a trusted index reads neither side bundle', async () => {
    const launcher = join(REPO, 'bin', 'baton.js');
    if (!existsSync(join(REPO, 'dist', 'cli', 'baton-resume.cjs'))) throw new Error('the build is missing: run npm run build:node first (npm test does)');
    const resumeBundle = await readFile(join(REPO, 'dist', 'cli', 'baton-resume.cjs'), 'utf8');
    // Neither zod's code (its core's global config) nor secretlint's (@secretlint/core's ignore message) is in the resume bundle.
    expect(resumeBundle).not.toContain('__zod_globalConfig');
    expect(resumeBundle).not.toContain('IGNORE_MESSAGE');
    await writeLog(claudeLogPath(join(side, 'home'), '/home/dev/side', idOf(105)), [claude.user({ uuid: 'side-5-u', cwd: '/home/dev/side', sessionId: idOf(105), timestamp: new Date(Date.UTC(2026, 10, 2, 11)).toISOString() }, `push with ${githubToken}`)]);
    const cold = await inPty(/push with/, ['\u001b'], `node --require ${JSON.stringify(hook)} ${JSON.stringify(launcher)}`, side);
    expect(cold.code).toBe(1);
    expect(cold.screen).toContain('push with [REDACTED:github]');
    expect(cold.screen).not.toContain(githubToken);
    expect((JSON.parse(await readFile(record(), 'utf8')) as { bundles: string[] }).bundles).toContain('baton-secretlint.cjs');
    // Folders older than the racy window: the next picker's first screen comes from the index, trusted.
    const walk = async (dir: string): Promise<void> => {
      for (const e of await readdir(dir, { withFileTypes: true })) if (e.isDirectory()) await walk(join(dir, e.name));
      await utimes(dir, Date.now() / 1000 - 3600, Date.now() / 1000 - 3600);
    };
    await walk(join(side, 'home', '.claude'));
    await new Promise<void>((done, fail) => execFile(process.execPath, [launcher, 'list', '--json', '--no-host'], { env: { ...process.env, HOME: join(side, 'home'), BATON_HOME: join(side, 'data'), XDG_RUNTIME_DIR: join(side, 'run') } }, (error) => (error ? fail(error) : done())));
    const trace = join(side, 'trace.jsonl');
    const warm = await inPty(/push with/, ['\u001b'], `node --require ${JSON.stringify(hook)} ${JSON.stringify(launcher)}`, side, { BATON_PHASE_TRACE: trace });
    expect(warm.code).toBe(1);
    expect(warm.screen).toContain('push with [REDACTED:github]');
    expect(JSON.parse((await readFile(trace, 'utf8')).trim().split('\n').at(-1)!).marks).toHaveProperty('index-listing');
    expect(JSON.parse(await readFile(record(), 'utf8'))).toEqual({ bundles: ['baton-resume.cjs'], zod: false });
  }, 90_000);
});
