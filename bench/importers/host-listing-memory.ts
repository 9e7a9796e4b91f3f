/**
 * Issue 15, host memory with hosted listings: a `baton serve` on an existing corpus and data dir
 * (caches warm), left to finish its start and confirming scan, then asked for `baton list --json`
 * (every candidate: 27.8 MB at 100,000), `--limit 50` and the full listing again by the built
 * CLI. The host's peak RSS (VmHWM) before the listings and after them, and each listing's wall
 * and CPU time. Each build in turn (--before first, then this one), same data dir, same run.
 *
 *   npx tsx bench/importers/host-listing-memory.ts --dir=/tmp/c15f/huge [--before=/path/to/older/bin/baton.js] [--settle-ms=4000]
 *
 * The corpus and its data dir must exist (candidates.ts writes them; run one warm listing first).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const dir = resolve(args.get('dir') ?? '/tmp/c15f/huge');
const settleMs = Number(args.get('settle-ms') ?? 4_000);
const THIS = resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js');
const env = { ...process.env, HOME: join(dir, 'home'), BATON_HOME: join(dir, 'data'), XDG_RUNTIME_DIR: join(dir, 'run') };

async function status(pid: number, field: 'VmHWM' | 'VmRSS'): Promise<number> {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(await readFile(`/proc/${pid}/status`, 'utf8').catch(() => ''));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

/** One CLI call under /usr/bin/time: wall ms here, CPU (user + system) ms from time. */
function list(bin: string, extra: string[]): Promise<{ ms: number; cpuMs: number; mb: number }> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    execFile('/usr/bin/time', ['-f', '%U %S', process.execPath, bin, 'list', '--json', ...extra], { env, maxBuffer: 512 * 1024 * 1024, encoding: 'buffer' }, (error, stdout, stderr) => {
      if (error) return fail(new Error(`baton list: ${error.message}\n${stderr.toString()}`));
      const m = /([\d.]+) ([\d.]+)\s*$/.exec(stderr.toString());
      done({ ms: performance.now() - t0, cpuMs: (Number(m?.[1] ?? 0) + Number(m?.[2] ?? 0)) * 1000, mb: stdout.length / 2 ** 20 });
    });
  });
}

async function startHost(bin: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [bin, 'serve', '--json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((done, fail) => {
    child.stdout!.once('data', () => done());
    child.once('exit', (code) => fail(new Error(`baton serve exited (${code})`)));
  });
  return child;
}

async function measure(name: string, bin: string): Promise<Record<string, string | number>[]> {
  const host = await startHost(bin);
  try {
    await new Promise((r) => setTimeout(r, settleMs));
    const settled = await status(host.pid!, 'VmHWM');
    const full = await list(bin, []);
    const afterFull = await status(host.pid!, 'VmHWM');
    const limited = await list(bin, ['--limit', '50']);
    const again = await list(bin, []);
    const afterAll = await status(host.pid!, 'VmHWM');
    const rss = await status(host.pid!, 'VmRSS');
    const row = (measure: string, r: { ms: number; cpuMs: number; mb: number }, peak: number | string) => ({ build: name, measure, 'wall ms': Math.round(r.ms), 'CLI CPU ms': Math.round(r.cpuMs), 'stdout MB': r.mb.toFixed(1), 'host peak MB after': peak });
    return [
      { build: name, measure: `host started, settled ${settleMs} ms`, 'wall ms': '', 'CLI CPU ms': '', 'stdout MB': '', 'host peak MB after': settled },
      row('baton list --json (first render)', full, afterFull),
      row('baton list --json --limit 50', limited, ''),
      row('baton list --json (render cache)', again, `${afterAll} (RSS now ${rss})`),
    ];
  } finally {
    host.kill('SIGTERM');
    await new Promise((r) => host.once('exit', r));
  }
}

async function main(): Promise<void> {
  console.log(`corpus: ${dir}; load average ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`);
  const rows: Record<string, string | number>[] = [];
  const before = args.get('before');
  if (before) rows.push(...(await measure(`before (${before})`, resolve(before))));
  rows.push(...(await measure('this build', THIS)));
  console.table(rows);
  console.log(`load average at the end: ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
