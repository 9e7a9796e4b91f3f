/**
 * Issue 15: `baton list --json` warm with no host, several builds alternated run by run, against
 * `node -e ""` in the same run. Each child preloads bench/store/max-rss.cjs and reports its own CPU
 * time (user + system, µs) and peak RSS on exit, so the CPU column has microsecond resolution
 * (/usr/bin/time's has 10 ms) and holds up better than wall time on a loaded machine.
 *
 *   npx tsx bench/importers/warm-list.ts --dir=/tmp/k15c7/full --runs=15 --bins=now=bin/baton.js,before=/tmp/k15c-base/bin/baton.js
 *
 * With --hosted=1 the same alternation measures the hosted listing: start `baton serve` on <dir>
 * first (HOME, BATON_HOME and XDG_RUNTIME_DIR as below), then every run is the fast path's answer.
 * With --hosted=each the bench starts a `baton serve` of each build itself, each on its own copy of
 * <dir>/data (<dir>/data-<label>, copied once) and its own runtime directory, so each build's CLI
 * asks its own build's host (a change to the socket's handshake is on both ends); it also prints
 * each host's CPU per listing (from /proc, 10 ms ticks summed over the runs).
 * --runtime=DIR puts those runtime directories under DIR (see RUNTIME_PARENT).
 *
 * --floor=1 adds a row run in every round after `node -e ""`: a Node process that only copies the
 * first build's listing (its bytes taken once, before the rounds) to its stdout, as the CLI copies
 * a host's rendered file (copy-to-stdout.cjs). Every row's stdout is this bench's pipe (Linux's
 * default capacity is 64 KB), read by this process: the writer waits on the reader once per
 * pipeful. That row is the floor for a Node process printing those bytes to this bench, on this
 * machine, in the same run (another reader, or a larger pipe, would move it).
 *
 * The corpus and caches in <dir> (home/, data/) are candidates.ts's: run it once first. A warm
 * listing trusts the index for FULL_VERIFY_MAX_AGE_MS (60 s) after the last full verification;
 * past that, the next listing stats every file again. So every REFRESH_EVERY_MS the bench deletes
 * the verification stamp and runs one unmeasured listing (a full verification), and only the
 * runs between are measured: every measured run is the index-only listing.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const REFRESH_EVERY_MS = 30_000;
const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '')).map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] as [string, string]));
const dir = resolve(args.get('dir') ?? '/tmp/baton-c15/full');
const runs = Number(args.get('runs') ?? 15);
const extra = (args.get('args') ?? '').split(' ').filter(Boolean);
const bins = (args.get('bins') ?? `now=${resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js')}`).split(',').map((pair) => {
  const [label, path] = pair.split('=') as [string, string];
  return { label, path: resolve(path) };
});
const data = join(dir, 'data');
/**
 * Where --hosted=each makes each host's XDG_RUNTIME_DIR (default <dir>). A desktop's is tmpfs
 * (systemd's /run/user/UID), where an encrypted store's host renders its listings in the clear
 * (src/core/host/listing-place.ts); on a disk it seals them: --runtime=/dev/shm/… measures the first.
 */
const RUNTIME_PARENT = resolve(args.get('runtime') ?? dir);
const preload = resolve(import.meta.dirname, '..', 'store', 'max-rss.cjs');
const cpuFile = join(dir, 'warm-list-cpu.txt');
const floor = args.get('floor') === '1';
const FLOOR_LABEL = 'node copying the listing to stdout';
const floorFile = join(dir, 'warm-list-floor.json');
const copyToStdout = resolve(import.meta.dirname, 'copy-to-stdout.cjs');
const env = { ...process.env, HOME: join(dir, 'home'), BATON_HOME: data, XDG_RUNTIME_DIR: join(dir, 'run'), BATON_BENCH_RSS_FILE: cpuFile };

interface Sample {
  ms: number;
  cpuMs: number;
  rssMb: number;
  bytes: number;
}

function run(argv: string[], runEnv: NodeJS.ProcessEnv = env): Promise<Sample> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    execFile(process.execPath, ['--require', preload, ...argv], { env: runEnv, maxBuffer: 512 * 1024 * 1024, encoding: 'buffer' }, async (error, stdout, stderr) => {
      const ms = performance.now() - t0;
      if (error) return fail(new Error(`${argv.join(' ')}: ${error.message}\n${stderr.toString()}`));
      const [rssKb, cpuUs] = (await readFile(cpuFile, 'utf8')).split(' ').map(Number) as [number, number];
      done({ ms, cpuMs: cpuUs / 1000, rssMb: rssKb / 1024, bytes: stdout.length });
    });
  });
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

// --hosted: a `baton serve` runs on <dir> (started by hand), so every listing is the host's answer
// and no index verification happens in the CLI: no refresh runs.
const hosted = args.get('hosted') === '1' || args.get('hosted') === 'each';
const hostPerBuild = args.get('hosted') === 'each';
let refreshedAt = hosted ? Infinity : -Infinity;
/** A full verification now, unmeasured, when the last one is REFRESH_EVERY_MS old. */
async function refresh(): Promise<void> {
  if (performance.now() - refreshedAt < REFRESH_EVERY_MS) return;
  const stamp = join(data, 'importers-candidates.idx.verified');
  await rm(stamp, { force: true });
  await run([bins[0]!.path, 'list', '--json']);
  await stat(stamp); // the full path wrote it again: the next listings read the index alone
  refreshedAt = performance.now();
}

const loadavg = async () => (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
console.log(`corpus ${dir}; load average ${await loadavg()}; ${runs} runs of each, alternated; list args: --json ${extra.join(' ')}`);
/** A build's own `baton serve` on its own copy of the data directory (--hosted=each), once it has answered a listing. */
async function startOwnHost(label: string, bin: string): Promise<{ env: NodeJS.ProcessEnv; host: ChildProcess }> {
  const ownData = join(dir, `data-${label}`);
  if (!existsSync(ownData)) await cp(data, ownData, { recursive: true });
  const runtime = join(RUNTIME_PARENT, `run-${label}`);
  await mkdir(runtime, { recursive: true, mode: 0o700 });
  const ownEnv = { ...env, BATON_HOME: ownData, XDG_RUNTIME_DIR: runtime };
  const host = spawn(process.execPath, [bin, 'serve', '--json'], { env: ownEnv, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((ready, fail) => {
    host.stdout!.once('data', () => ready());
    host.once('exit', (code) => fail(new Error(`${label}'s baton serve exited (${code})`)));
  });
  // Its first answers render the listing and warm its render cache: not measured.
  for (let k = 0; k < 3; k++) await run([bin, 'list', '--json', ...extra], ownEnv);
  return { env: ownEnv, host };
}

/** The first build's listing, written to floorFile for the floor row (an unmeasured listing). */
async function captureListing(bin: string, runEnv: NodeJS.ProcessEnv): Promise<void> {
  const stdout = await new Promise<Buffer>((done, fail) =>
    execFile(process.execPath, [bin, 'list', '--json', ...extra], { env: runEnv, maxBuffer: 512 * 1024 * 1024, encoding: 'buffer' }, (error, out) => (error ? fail(error) : done(out))),
  );
  await writeFile(floorFile, stdout);
}

/** User + system CPU of a process so far (ms, 10 ms ticks). */
async function cpuOf(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const own = new Map<string, { env: NodeJS.ProcessEnv; host: ChildProcess; cpuMs: number }>();
if (hostPerBuild) for (const b of bins) own.set(b.label, { ...(await startOwnHost(b.label, b.path)), cpuMs: 0 });
const samples = new Map<string, Sample[]>([['node -e ""', []], ...(floor ? [[FLOOR_LABEL, []] as [string, Sample[]]] : []), ...bins.map((b) => [b.label, []] as [string, Sample[]])]);
try {
  if (floor) {
    await refresh();
    await captureListing(bins[0]!.path, own.get(bins[0]!.label)?.env ?? env);
  }
  for (let i = 0; i < runs; i++) {
    await refresh();
    samples.get('node -e ""')!.push(await run(['-e', '']));
    if (floor) samples.get(FLOOR_LABEL)!.push(await run([copyToStdout, floorFile]));
    // Each round in the other order: a build is not always the one run right after the baseline.
    for (const b of i % 2 === 0 ? bins : [...bins].reverse()) {
      const mine = own.get(b.label);
      const before = mine ? await cpuOf(mine.host.pid!) : 0;
      samples.get(b.label)!.push(await run([b.path, 'list', '--json', ...extra], mine?.env));
      if (mine) mine.cpuMs += (await cpuOf(mine.host.pid!)) - before;
    }
  }
} finally {
  if (floor) await rm(floorFile, { force: true });
  for (const [label, { host, cpuMs }] of own) {
    console.log(`${label}'s host: ${(cpuMs / runs).toFixed(1)} ms of CPU per listing`);
    host.kill('SIGTERM');
  }
}
const sizes = new Set(bins.map((b) => samples.get(b.label)![0]!.bytes));
console.table(
  [...samples].map(([measure, s]) => ({
    measure,
    runs: s.length,
    'wall median ms': Math.round(median(s.map((x) => x.ms))),
    'wall min ms': Math.round(Math.min(...s.map((x) => x.ms))),
    'CPU median ms': Number(median(s.map((x) => x.cpuMs)).toFixed(1)),
    'CPU min ms': Number(Math.min(...s.map((x) => x.cpuMs)).toFixed(1)),
    'peak RSS MB': Math.round(Math.max(...s.map((x) => x.rssMb))),
    'stdout MB': (s[0]!.bytes / 2 ** 20).toFixed(2),
  })),
);
// Paired: each build against the first one in the same round (adjacent runs), so a change of load
// between rounds cancels; the median of those differences holds up better than a difference of medians.
const first = samples.get(bins[0]!.label)!;
for (const b of bins.slice(1)) {
  const mine = samples.get(b.label)!;
  const cpu = mine.map((x, k) => x.cpuMs - first[k]!.cpuMs);
  const wall = mine.map((x, k) => x.ms - first[k]!.ms);
  const below = cpu.filter((d) => d < 0).length;
  console.log(`${b.label} − ${bins[0]!.label}, paired by round: CPU median ${median(cpu).toFixed(1)} ms (lower in ${below} of ${cpu.length} rounds), wall median ${median(wall).toFixed(0)} ms`);
}
if (floor) {
  // Paired by round as above: what each build's listing costs beyond moving its bytes through the pipe.
  const pipe = samples.get(FLOOR_LABEL)!;
  const base = samples.get('node -e ""')!;
  const signed = (v: number, digits: number) => `${v >= 0 ? '+' : ''}${v.toFixed(digits)}`;
  console.log(`the pipe's floor, paired by round: wall median ${signed(median(pipe.map((x, k) => x.ms - base[k]!.ms)), 0)} ms over node -e "" (CPU ${signed(median(pipe.map((x, k) => x.cpuMs - base[k]!.cpuMs)), 1)})`);
  for (const b of bins) {
    const mine = samples.get(b.label)!;
    console.log(`${b.label} − the floor, paired by round: wall median ${median(mine.map((x, k) => x.ms - pipe[k]!.ms)).toFixed(0)} ms, CPU ${median(mine.map((x, k) => x.cpuMs - pipe[k]!.cpuMs)).toFixed(1)} ms`);
  }
}
if (sizes.size !== 1) console.log(`note: the builds printed different sizes: ${[...sizes].join(', ')} bytes`);
console.log(`load average at the end: ${await loadavg()}`);
