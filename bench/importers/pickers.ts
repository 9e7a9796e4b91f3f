/**
 * Issue 15: the resume pickers' first screens, side by side in one run, each in a real pty
 * (pty-screen.ts), on the candidates corpus (N Claude Code sessions in /home/dev/project plus N
 * Codex rollouts over 21 directories): time from spawn until a session row is on screen.
 *
 *   baseline        `node -e ""` (a plain child, and the same inside the pty)
 *   baton resume    the picker, no host running, then with `baton serve` running
 *   claude --resume Claude Code's picker (offline: dummy key pre-approved, API at a closed port)
 *   codex resume    Codex's picker (`--all`: every directory, as Baton lists), dummy API-key login:
 *                   once cold (no state database, no app-server daemon: it indexes every rollout),
 *                   then warm (database built, the daemon the previous run left running)
 *
 *   npm run build:node
 *   npx tsx bench/importers/pickers.ts --dir=/tmp/baton-c15/full --runs=7 [--peers=/work/peers] [--before=DIR/bin/baton.js]
 *
 * --due=1: two more rows without a host, the index's periodic check due (its `.verified` written two
 * minutes old before each run, as a picker opened a while after the last listing meets it).
 *
 * --frame-cpu=1: every Node program in the pty (the baseline and both builds) preloads
 * first-frame-cpu.cjs, which records the process's own CPU (process.cpuUsage, µs) at its first
 * write showing a row (the baseline: its `ready`). Adds a "frame CPU ms" column and, with --before,
 * the paired difference now − before per round: /proc's 10 ms ticks resolve nothing under load.
 *
 * --before: another build's launcher (a copy of bin/ and dist/ with node_modules linked beside it),
 * timed in the same rounds as this one. The CPU column is the pty's process tree's user + system
 * time up to the match, from /proc (the programs are killed there, so no rusage comes back).
 *
 * The peers are installed outside the repo: npm install @anthropic-ai/claude-code@2.1.328
 * @openai/codex@0.169.0 in the --peers directory. Without it the peer rows are left out.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { timeToScreen } from './pty-screen.js';
import { candidateIndexFileFor, verifiedFileOf } from '../../src/core/importers/candidate-index.js';
import { FULL_VERIFY_MAX_AGE_MS } from '../../src/core/importers/limits.js';
import { importersCacheFile } from '../../src/core/paths.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const dir = resolve(args.get('dir') ?? '/tmp/baton-c15/full');
const runs = Number(args.get('runs') ?? 7);
const peers = args.get('peers');
const BATON = resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js');
const BEFORE = args.get('before') ? resolve(args.get('before')!) : null;
const DUE = args.get('due') === '1';
const FRAME_CPU = args.get('frame-cpu') === '1';
const FRAME_FILE = join(dir, 'first-frame-cpu.txt');
/** How a Node program is started in the pty: with the first-frame preload under --frame-cpu=1. */
const NODE = FRAME_CPU ? `${process.execPath} --require ${resolve(import.meta.dirname, 'first-frame-cpu.cjs')}` : process.execPath;
const home = join(dir, 'home');
const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, BATON_HOME: join(dir, 'data'), XDG_RUNTIME_DIR: join(dir, 'run'), TERM: 'xterm-256color', NO_COLOR: undefined, ...(FRAME_CPU ? { BATON_BENCH_FRAME_FILE: FRAME_FILE } : {}) };
/** Where the corpus's Claude Code sessions say they ran (Claude's picker lists the current directory's). */
const CLAUDE_PROJECT = '/home/dev/project';
const DUMMY_KEY = 'sk-ant-api03-bench15-dummy-key-0000000000000000000000000000';

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function row(measure: string, ms: number[], cpu: number[], frameCpu: number[] = []): Record<string, string | number> {
  return {
    measure,
    runs: ms.length,
    'median ms': Math.round(median(ms)),
    'min ms': Math.round(Math.min(...ms)),
    'max ms': Math.round(Math.max(...ms)),
    'CPU ms (median)': cpu.length > 0 ? Math.round(median(cpu)) : '',
    ...(FRAME_CPU ? { 'frame CPU ms (median)': frameCpu.length > 0 ? Number(median(frameCpu).toFixed(1)) : '' } : {}),
  };
}

/** The first-frame preload's CPU (ms) of the run that just matched; the file is removed for the next run. */
async function frameCpuMs(): Promise<number | null> {
  if (!FRAME_CPU) return null;
  const text = await readFile(FRAME_FILE, 'utf8').catch(() => null);
  await rm(FRAME_FILE, { force: true });
  return text === null ? null : Number(text.split(' ')[0]) / 1000;
}

async function series(n: number, once: () => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await once());
  return out;
}

function plainNode(): Promise<number> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    execFile(process.execPath, ['-e', ''], (error) => (error ? fail(error) : done(performance.now() - t0)));
  });
}

/** A loopback port nothing listens on: Claude Code's API calls fail at once instead of hanging. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

async function prepareClaude(): Promise<void> {
  await mkdir(CLAUDE_PROJECT, { recursive: true });
  const file = join(home, '.claude.json');
  const config = existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>) : {};
  Object.assign(config, {
    hasCompletedOnboarding: true,
    theme: 'dark',
    customApiKeyResponses: { approved: [DUMMY_KEY.slice(-20)], rejected: [] },
    projects: { [CLAUDE_PROJECT]: { hasTrustDialogAccepted: true, allowedTools: [] } },
  });
  await writeFile(file, JSON.stringify(config, null, 2));
}

function prepareCodex(codex: string): void {
  if (existsSync(join(home, '.codex', 'auth.json'))) return;
  execFileSync(codex, ['login', '--with-api-key'], { env, input: 'sk-bench15-dummy\n', stdio: ['pipe', 'ignore', 'inherit'] });
}

/** Codex's picker talks to an app-server daemon it starts from CODEX_HOME/packages and leaves running. */
function stopCodexDaemons(): void {
  try {
    execFileSync('pkill', ['-f', join(home, '.codex', 'packages')]);
  } catch {
    // pkill exits 1 when nothing matched.
  }
}

/** Codex without its state database (rebuilt from the rollouts on the next start) and without its daemon. */
async function coldCodex(): Promise<void> {
  stopCodexDaemons();
  const codexHome = join(home, '.codex');
  for (const name of await readdir(codexHome)) if (name.startsWith('state_')) await rm(join(codexHome, name), { force: true });
}

async function startHost(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BATON, 'serve', '--json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((done, fail) => {
    child.stdout!.once('data', () => done());
    child.once('exit', (code) => fail(new Error(`baton serve exited (${code})`)));
  });
  // Its first answer (the resident set is ready).
  execFileSync(process.execPath, [BATON, 'list', '--json', '--limit', '1'], { env, stdio: 'ignore' });
  return child;
}

async function main(): Promise<void> {
  await mkdir(join(dir, 'run'), { recursive: true, mode: 0o700 });
  // Every picker runs in the corpus's project (its sessions' cwd): on a new machine it is not there yet.
  await mkdir(CLAUDE_PROJECT, { recursive: true });
  const load = async () => (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
  console.log(`corpus ${dir}; load average ${await load()}`);
  const firstRow = /Refactor handler \d+|Session \d+: make the build green/;
  const rows: Array<Record<string, string | number>> = [];
  // Interleaved per round, so load changes hit every measure alike.
  const samples: Record<string, number[]> = {};
  const cpu: Record<string, number[]> = {};
  const frameCpu: Record<string, number[]> = {};
  const add = async (name: string, run: number | { ms: number; cpuMs: number }) => {
    (samples[name] ??= []).push(typeof run === 'number' ? run : run.ms);
    if (typeof run !== 'number') (cpu[name] ??= []).push(run.cpuMs);
    const frame = typeof run === 'number' ? null : await frameCpuMs();
    if (frame !== null) (frameCpu[name] ??= []).push(frame);
  };
  await rm(FRAME_FILE, { force: true });
  const claude = peers ? join(peers, 'node_modules', '.bin', 'claude') : null;
  // Codex lists only rollouts with a user_message event (the corpus writes one, as real rollouts do).
  const codex = peers ? join(peers, 'node_modules', '.bin', 'codex') : null;
  if (claude) await prepareClaude();
  if (codex) prepareCodex(codex);
  const port = await closedPort();
  const codexRow = /Refactor handler \d+/;
  if (codex) {
    await coldCodex();
    await add('codex resume --all (Codex 0.169.0), cold: builds its state database', (await timeToScreen(`${codex} resume --all`, codexRow, { env, cwd: CLAUDE_PROJECT, timeoutMs: 600_000 })));
  }
  for (let i = 0; i < runs; i++) {
    await add('baseline: node -e ""', await plainNode());
    // Kept alive after writing, so its CPU can be read at the match like the pickers'.
    await add('baseline: node -e "" in the pty', await timeToScreen(`${NODE} -e "process.stdout.write('ready'); setTimeout(() => {}, 5000)"`, /ready/, { env }));
    if (BEFORE) await add('before: baton resume picker, no host', await timeToScreen(`${NODE} ${BEFORE} resume`, firstRow, { env, cwd: CLAUDE_PROJECT }));
    await add('baton resume picker, no host', await timeToScreen(`${NODE} ${BATON} resume`, firstRow, { env, cwd: CLAUDE_PROJECT }));
    if (DUE) {
      const due = () => writeFile(verifiedFileOf(candidateIndexFileFor(importersCacheFile(join(dir, 'data')))), String(Date.now() - 2 * FULL_VERIFY_MAX_AGE_MS));
      if (BEFORE) await add('before: baton resume picker, no host, index check due', await due().then(() => timeToScreen(`${NODE} ${BEFORE} resume`, firstRow, { env, cwd: CLAUDE_PROJECT })));
      await add('baton resume picker, no host, index check due', await due().then(() => timeToScreen(`${NODE} ${BATON} resume`, firstRow, { env, cwd: CLAUDE_PROJECT })));
    }
    if (claude) {
      const claudeEnv = { ...env, ANTHROPIC_API_KEY: DUMMY_KEY, ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`, DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' };
      await add('claude --resume (Claude Code 2.1.328)', (await timeToScreen(`${claude} --resume`, /Session \d+: make the build green/, { env: claudeEnv, cwd: CLAUDE_PROJECT, timeoutMs: 60_000 })));
    }
    if (codex) await add('codex resume --all (Codex 0.169.0), warm', (await timeToScreen(`${codex} resume --all`, codexRow, { env, cwd: CLAUDE_PROJECT, timeoutMs: 60_000 })));
  }
  stopCodexDaemons();
  const host = await startHost();
  try {
    for (let i = 0; i < runs; i++) {
      await add('baseline again: node -e ""', await plainNode());
      await add('baseline again: node -e "" in the pty', await timeToScreen(`${NODE} -e "process.stdout.write('ready'); setTimeout(() => {}, 5000)"`, /ready/, { env }));
      if (BEFORE) await add('before: baton resume picker, host running', await timeToScreen(`${NODE} ${BEFORE} resume`, firstRow, { env, cwd: CLAUDE_PROJECT }));
      await add('baton resume picker, host running', await timeToScreen(`${NODE} ${BATON} resume`, firstRow, { env, cwd: CLAUDE_PROJECT }));
    }
  } finally {
    host.kill('SIGTERM');
    await new Promise((r) => host.once('exit', r));
  }
  // Again: a daemon Codex's last picker started as it was killed came up after the first stop, and
  // took ~20 % of a core from every bench run after this one.
  stopCodexDaemons();
  for (const [name, ms] of Object.entries(samples)) rows.push(row(name, ms, cpu[name] ?? [], frameCpu[name] ?? []));
  console.table(rows);
  // Paired by round (adjacent runs): a change of load between rounds cancels.
  for (const [now, before] of [['baton resume picker, no host', 'before: baton resume picker, no host'], ['baton resume picker, host running', 'before: baton resume picker, host running']] as const) {
    const a = frameCpu[now] ?? [];
    const b = frameCpu[before] ?? [];
    if (a.length === 0 || a.length !== b.length) continue;
    const d = a.map((x, k) => x - b[k]!);
    console.log(`${now}: frame CPU now − before, paired by round: median ${median(d).toFixed(1)} ms (lower in ${d.filter((x) => x < 0).length} of ${d.length})`);
  }
  console.log(`load average at the end: ${await load()}`);
}

await main();
