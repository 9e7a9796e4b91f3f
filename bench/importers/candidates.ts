/**
 * Issue 15's table: `baton list --json` as real child processes of the built CLI (npm run
 * build:node), against `node -e ""` measured in the same run, on a corpus of N Claude Code
 * sessions in one project plus N Codex rollouts of ~20 KB (candidates-corpus.ts).
 *
 *   cold            no caches in the data dir (each run deletes them); alternated with the same
 *                   build's in-thread scan (BATON_SCAN_WORKERS=0) as its baseline
 *   warm, no host   caches from the previous run; nothing changed
 *   warm, host      `baton serve` running on the same data dir (the CLI asks it over the socket)
 *   new file        with the host running: a new Claude session file written, then polled for
 *                   with `candidates.list` until listed (watch + debounce + one file read)
 * Wall time per run; peak RSS of the CLI (and of the host) from /usr/bin/time and VmHWM.
 *
 *   npx tsx bench/importers/candidates.ts --dir=/tmp/baton-c15/full [--claude=10000 --codex=10000] [--runs=7] [--cold-runs=2] [--before=/path/to/older/bin/baton.js] [--bin=other/bin/baton.js]
 *
 * --before: the cold listing of another build too (e.g. `git archive` of the previous commit,
 * built with `node scripts/build-cli.js`), run alternately with this one: before/after in one run.
 *
 * The corpus is written under <dir>/home once and reused (delete <dir> to regenerate).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { claudeSession, writeCandidateCorpus } from './candidates-corpus.js';
import { listFromHost } from '../../src/cli/commands/list-host.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const dir = resolve(args.get('dir') ?? '/tmp/baton-c15/full');
const claudeFiles = Number(args.get('claude') ?? 10_000);
const codexFiles = Number(args.get('codex') ?? 10_000);
const runs = Number(args.get('runs') ?? 7);
const coldRuns = Number(args.get('cold-runs') ?? 2);
// --bin: another build's bin/baton.js for every row (a before/after of the host in one sitting).
const BATON = resolve(args.get('bin') ?? resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js'));
const home = join(dir, 'home');
const data = join(dir, 'data');
const runtime = join(dir, 'run');
const env = { ...process.env, HOME: home, BATON_HOME: data, XDG_RUNTIME_DIR: runtime };
// This process asks the host too (listFromHost resolves the socket from the environment).
process.env.XDG_RUNTIME_DIR = runtime;

/**
 * Under a Secret Service (bench/with-secret-service.ts), the store is created first, by
 * `baton encrypt --status`, so every row is encrypted: a `baton list` on a new data directory
 * creates no store and no key, and would scan and write its caches in the clear
 * (docs/encryption.md "On by default"). Returns the store's status line, as the table's caption.
 */
async function atRestStore(): Promise<string> {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) return 'at rest: no Secret Service in this run (plaintext caches)';
  const out = await new Promise<string>((done, fail) =>
    execFile(process.execPath, [BATON, 'encrypt', '--status'], { env }, (error, stdout) => (error ? fail(error) : done(stdout))),
  );
  const status = out.split('\n').find((l) => /encrypted at rest/i.test(l)) ?? out.trim();
  if (!/Encrypted at rest/.test(status)) throw new Error(`a Secret Service is running but the store is not encrypted: ${out.trim()}`);
  return `at rest: ${status.trim()}`;
}

interface Sample {
  ms: number;
  rssMb: number;
  bytes: number;
  /** User + system CPU time of the process (less sensitive than wall time to a loaded machine). */
  cpuMs: number;
}

/** One process under /usr/bin/time: wall time measured here, peak RSS from time's %M (KB). */
function run(argv: string[], extraEnv: Record<string, string> = {}): Promise<Sample> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    execFile('/usr/bin/time', ['-f', '%M %U %S', ...argv], { env: { ...env, ...extraEnv }, maxBuffer: 512 * 1024 * 1024, encoding: 'buffer' }, (error, stdout, stderr) => {
      const ms = performance.now() - t0;
      if (error) return fail(new Error(`${argv.join(' ')}: ${error.message}\n${stderr.toString()}`));
      const m = /(\d+) ([\d.]+) ([\d.]+)\s*$/.exec(stderr.toString());
      done({ ms, rssMb: Number(m?.[1] ?? 0) / 1024, bytes: stdout.length, cpuMs: (Number(m?.[2] ?? 0) + Number(m?.[3] ?? 0)) * 1000 });
    });
  });
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function series(name: string, n: number, argv: string[], before?: () => Promise<void>, extraEnv?: Record<string, string>): Promise<Record<string, string | number>> {
  const samples: Sample[] = [];
  for (let i = 0; i < n; i++) {
    await before?.();
    samples.push(await run(argv, extraEnv));
  }
  const ms = samples.map((s) => s.ms);
  return { measure: name, runs: n, 'median ms': Math.round(median(ms)), 'min ms': Math.round(Math.min(...ms)), 'max ms': Math.round(Math.max(...ms)), 'CPU ms (median)': Math.round(median(samples.map((s) => s.cpuMs))), 'peak RSS MB': Math.round(Math.max(...samples.map((s) => s.rssMb))), 'stdout MB': (samples[0]!.bytes / 2 ** 20).toFixed(1) };
}

async function startHost(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BATON, 'serve', '--json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((done, fail) => {
    child.stdout!.once('data', () => done());
    child.once('exit', (code) => fail(new Error(`baton serve exited (${code})`)));
  });
  return child;
}

async function hostPeakMb(pid: number): Promise<number> {
  const m = /VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8').catch(() => ''));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function main(): Promise<void> {
  if (!existsSync(join(home, '.claude'))) {
    const t0 = performance.now();
    await writeCandidateCorpus(home, claudeFiles, codexFiles);
    console.log(`corpus written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  await mkdir(runtime, { recursive: true, mode: 0o700 });
  console.log(await atRestStore());
  console.log(`corpus: ${dir} (${claudeFiles} Claude + ${codexFiles} Codex sessions of ~20 KB); load average ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`);
  const list = [process.execPath, BATON, 'list', '--json'];
  const clearCaches = async () => {
    for (const f of ['importers-cache.json', 'importers-candidates.idx']) await rm(join(data, f), { force: true });
  };

  const rows = [];
  rows.push(await series('baseline: node -e ""', runs, [process.execPath, '-e', '']));
  const before = args.get('before');
  if (coldRuns > 0 && before) {
    // Alternating, so both builds see the same load.
    const olds: Array<Record<string, string | number>> = [];
    const news: Array<Record<string, string | number>> = [];
    for (let i = 0; i < coldRuns; i++) {
      olds.push(await series(`before (${before}): cold`, 1, [process.execPath, before, 'list', '--json'], clearCaches));
      news.push(await series('baton list --json, cold (no cache)', 1, list, clearCaches));
    }
    rows.push(...olds, ...news);
  } else if (coldRuns > 0) {
    // The scan's worker pool against the same build's in-thread scan (BATON_SCAN_WORKERS=0), alternated.
    const inThread: Array<Record<string, string | number>> = [];
    const pooled: Array<Record<string, string | number>> = [];
    for (let i = 0; i < coldRuns; i++) {
      inThread.push(await series('cold, in-thread scan (BATON_SCAN_WORKERS=0)', 1, list, clearCaches, { BATON_SCAN_WORKERS: '0' }));
      pooled.push(await series('baton list --json, cold (no cache)', 1, list, clearCaches));
    }
    rows.push(...inThread, ...pooled);
  }
  rows.push(await series('baton list --json, warm, no host', runs, list));
  rows.push(await series('baton list --json --limit 50, warm, no host', runs, [...list, '--limit', '50']));
  rows.push(await series('baseline again: node -e ""', runs, [process.execPath, '-e', '']));

  const host = await startHost();
  try {
    // The host's first scan is warm (the caches exist); wait for it through the same socket call.
    const h0 = performance.now();
    if ((await listFromHost({ agents: true, filter: {}, limit: 1 }, data)) === null) throw new Error('the host did not answer candidates.list');
    const hostReadyMs = performance.now() - h0;
    rows.push(await series('baton list --json, warm, host running', runs, list));
    rows.push(await series('baton list --json --limit 50, host running', runs, [...list, '--limit', '50']));

    // A new Claude session file: how long until the host lists it (no rescan: checked in health).
    const latencies: number[] = [];
    const projectDir = join(home, '.claude', 'projects', '-home-dev-project');
    // Sort times newer than anything earlier runs left behind, so the file is first in the list.
    const newest = 10_000_000 + (Math.floor(Date.now() / 1000) % 1_000_000) * 10;
    for (let k = 0; k < 5; k++) {
      const id = randomUUID();
      const path = join(projectDir, `${id}.jsonl`);
      const t0 = performance.now();
      await writeFile(path, claudeSession(id, '/home/dev/project', newest + k));
      for (;;) {
        const text = await listFromHost({ agents: true, filter: { source: 'claude' }, limit: 1 }, data);
        if (text?.includes(id)) break;
        if (performance.now() - t0 > 10_000) throw new Error('the new file was not listed within 10 s');
        await new Promise((r) => setTimeout(r, 10));
      }
      latencies.push(performance.now() - t0);
      await rm(path);
      await new Promise((r) => setTimeout(r, 400));
    }
    const health = JSON.parse(JSON.stringify(await (await import('../../src/core/host/candidate-doctor.js')).readCandidateHealth(data)));
    rows.push({ measure: 'new Claude file listed by the host (5 files)', runs: 5, 'median ms': Math.round(median(latencies)), 'min ms': Math.round(Math.min(...latencies)), 'max ms': Math.round(Math.max(...latencies)), 'peak RSS MB': Math.round(await hostPeakMb(host.pid!)), 'stdout MB': '' });
    console.log(`host: first answer after start ${Math.round(hostReadyMs)} ms; peak RSS ${Math.round(await hostPeakMb(host.pid!))} MB; watch health ${JSON.stringify(health)}`);
  } finally {
    host.kill('SIGTERM');
    await new Promise((r) => host.once('exit', r));
  }
  console.table(rows);
  console.log(`load average at the end: ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`);
}

await main();
