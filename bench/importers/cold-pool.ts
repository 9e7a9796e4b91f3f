/**
 * Issue 15, the cold listing with the scan's worker pool (src/core/importers/scan-pool.ts):
 * `baton list --json --no-host` with no caches, the in-thread scan (BATON_SCAN_WORKERS=0, the
 * baseline) and the pooled one (default, 2 workers) alternated in one run, so both see the same load.
 *
 * Per run: wall time; CPU of the whole process (user + system, /proc/<pid>/stat at its last sample);
 * CPU of the main thread alone (/proc/<pid>/task/<pid>/stat, polled every 2 ms), the critical path
 * once the parsing moved to the workers; and the scan's phases (BATON_PHASE_TRACE marks, ms since
 * the process started): stats done, first batch listed, every file read, caches written, exit.
 *
 *   npm run build:node && npx tsx bench/importers/cold-pool.ts --dir=/tmp/c15f/full --runs=3 [--before=/tmp/base/bin/baton.js]
 *
 * --before: another build's pooled listing too (`git archive main` built with
 * `node scripts/build-cli.js`), alternated with this one's: before/after under the same load.
 * --workers=0,1,2,default: the BATON_SCAN_WORKERS values run with this build (default 0,2; the
 * --before build runs with the last); `default` sets none, so the build picks (scan-pooling.ts
 * defaultWorkers: one on two cores below 30,000 files since the fifteenth sitting). "tail ms": from
 * the last worker's retirement to the end of the read, the scan's thread alone with a core idle.
 * "persist ms": from the end of the read to the caches written (the index encoded, both files
 * fsynced and renamed), one core's work after every file is read.
 *
 * The corpus (<dir>/home) is read, never written; the data directory is <dir>/data unless --data.
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const dir = resolve(args.get('dir') ?? '/tmp/c15f/full');
const data = resolve(args.get('data') ?? join(dir, 'data'));
const runs = Number(args.get('runs') ?? 3);
const BATON = resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js');
const BEFORE = args.get('before') ? resolve(args.get('before')!) : null;
const WORKERS = (args.get('workers') ?? '0,2').split(',');
if (!WORKERS.every((w) => /^(\d{1,2}|default)$/.test(w))) throw new Error(`--workers=${args.get('workers')}: a list of whole numbers or \`default\`, e.g. 0,1,2,default`);
const TICK_MS = 1000 / 100; // USER_HZ: /proc reports CPU in clock ticks of 10 ms

interface Sample {
  wall: number;
  cpu: number;
  mainCpu: number;
  marks: Record<string, number>;
}

/** utime + stime of a /proc stat line, in ms (fields 14 and 15, after the parenthesised name). */
function cpuOf(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

async function once(workers: string, bin = BATON): Promise<Sample> {
  for (const f of ['importers-cache.json', 'importers-candidates.idx']) await rm(join(data, f), { force: true });
  const trace = join(tmpdir(), `baton-cold-pool-${process.pid}.jsonl`);
  await rm(trace, { force: true });
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: join(dir, 'home'), BATON_HOME: data, XDG_RUNTIME_DIR: join(dir, 'run'), BATON_PHASE_TRACE: trace };
  if (workers === 'default') delete env.BATON_SCAN_WORKERS;
  else env.BATON_SCAN_WORKERS = workers;
  const t0 = performance.now();
  const child = spawn(process.execPath, [bin, 'list', '--json', '--no-host'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  let cpu = 0;
  let mainCpu = 0;
  const poll = setInterval(() => {
    readFile(`/proc/${child.pid}/stat`, 'utf8').then((s) => (cpu = Math.max(cpu, cpuOf(s))), () => undefined);
    readFile(`/proc/${child.pid}/task/${child.pid}/stat`, 'utf8').then((s) => (mainCpu = Math.max(mainCpu, cpuOf(s))), () => undefined);
  }, 2);
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  const wall = performance.now() - t0;
  clearInterval(poll);
  if (code !== 0) throw new Error(`${bin} list exited ${code}`);
  const marks = (JSON.parse((await readFile(trace, 'utf8')).trim().split('\n').pop()!) as { marks: Record<string, number> }).marks;
  return { wall, cpu, mainCpu, marks };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function main(): Promise<void> {
  await mkdir(join(dir, 'run'), { recursive: true, mode: 0o700 });
  const load = async () => (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
  console.log(`corpus ${dir}/home, data ${data}; load average ${await load()}`);
  const samples: Record<string, Sample[]> = { ...Object.fromEntries(WORKERS.map((w) => [w, []])), ...(BEFORE ? { before: [] } : {}) };
  for (let i = 0; i < runs; i++) {
    for (const w of WORKERS) samples[w]!.push(await once(w));
    if (BEFORE) samples.before!.push(await once(WORKERS[WORKERS.length - 1]!, BEFORE));
  }
  const phases = ['scan-stats', 'scan-first-batch', 'scan-workers-retired', 'scan-read', 'scan-saved', 'exit'];
  const rows = Object.entries(samples).map(([w, s]) => ({
    scan: w === '0' ? 'in-thread (BATON_SCAN_WORKERS=0), baseline' : w === 'before' ? `pool of ${WORKERS[WORKERS.length - 1]} workers, --before build` : w === 'default' ? "the build's default pool" : `pool of ${w} worker${w === '1' ? '' : 's'}`,
    runs: s.length,
    'wall ms (median)': Math.round(median(s.map((x) => x.wall))),
    'wall min': Math.round(Math.min(...s.map((x) => x.wall))),
    'CPU ms': Math.round(median(s.map((x) => x.cpu))),
    'main thread CPU ms': Math.round(median(s.map((x) => x.mainCpu))),
    ...Object.fromEntries(phases.map((p) => [p, Math.round(median(s.map((x) => x.marks[p] ?? Number.NaN)))])),
    'tail ms': Math.round(median(s.map((x) => (x.marks['scan-read'] ?? Number.NaN) - (x.marks['scan-workers-retired'] ?? Number.NaN)))),
    'persist ms': Math.round(median(s.map((x) => (x.marks['scan-saved'] ?? Number.NaN) - (x.marks['scan-read'] ?? Number.NaN)))),
  }));
  console.table(rows);
  console.log(`load average at the end: ${await load()}`);
}

await main();
