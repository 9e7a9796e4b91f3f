/**
 * Issue 15, host memory with hosted listings: a `baton serve` on an existing corpus and data dir
 * (caches warm), left to finish its start and confirming scan, then asked for `baton list --json`
 * (every candidate: 27.8 MB at 100,000), `--limit 50` and the full listing again by the built
 * CLI. The host's peak RSS (VmHWM) before the listings and after them, and each listing's wall
 * and CPU time. Each build in turn (--before first, then this one), same data dir, same run.
 *
 *   npx tsx bench/importers/host-listing-memory.ts --dir=/tmp/c15f/huge [--before=/path/to/older/bin/baton.js] [--settle-ms=4000] [--add-file] [--racy-index] [--persisted-index]
 *
 * --add-file: each build starts from the same data dir (kept aside as data.pristine at the start)
 * with one Claude session copied under a new uuid while no host ran, as a user's new session
 * since the last host would be; the copy is removed after each build.
 *
 * --racy-index: each build starts from the same data dir, its index stamped (mtime) half a second
 * after the newest folder it recorded changed, as if written right after a session was added
 * (hasRacyFolders): neither the quick start nor the confirm trusts it, so the host runs the full scan.
 *
 * --persisted-index: each build starts from the same data dir, its index written again from its
 * entries without the folders' view, as a host leaves it after persisting a watched change
 * (agent-candidates.ts schedulePersist): the next host's start.
 *
 * The corpus and its data dir must exist (candidates.ts writes them; run one warm listing first).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFile, cp, readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { readCandidateIndex } from '../../src/core/importers/candidate-index.js';
import { persistIndex } from '../../src/core/importers/scan.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const dir = resolve(args.get('dir') ?? '/tmp/c15f/huge');
const settleMs = Number(args.get('settle-ms') ?? 4_000);
const THIS = resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js');
const env = { ...process.env, HOME: join(dir, 'home'), BATON_HOME: join(dir, 'data'), XDG_RUNTIME_DIR: join(dir, 'run') };

async function status(pid: number, field: 'VmHWM' | 'VmRSS'): Promise<number> {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(await readFile(`/proc/${pid}/status`, 'utf8').catch(() => ''));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

/** The host's CPU time so far (user + system, ms) from /proc: its start and confirming scan. */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).replace(/^.*\) /s, '').split(' ');
  // After the command name: utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 a second).
  return (Number(fields[11]) + Number(fields[12])) * 10;
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

const addFile = args.has('add-file');
const racyIndex = args.has('racy-index');
const persistedIndex = args.has('persisted-index');
const pristine = join(dir, 'data.pristine');
const project = join(dir, 'home', '.claude', 'projects', '-home-dev-project');

/** The pristine data dir (its index rewritten without meta once, at the start: --persisted-index). */
async function restorePristine(): Promise<void> {
  await rm(join(dir, 'data'), { recursive: true, force: true });
  await cp(pristine, join(dir, 'data'), { recursive: true, preserveTimestamps: true });
}

/** The data dir as it was at the start, and one session file added since (--add-file). */
async function changeWhileDown(): Promise<string> {
  await restorePristine();
  const from = (await readdir(project)).find((n) => n.endsWith('.jsonl'))!;
  const to = join(project, `${randomUUID()}.jsonl`);
  await copyFile(join(project, from), to);
  return to;
}

/** The latest mtime of these folders and the folders under them (a few dozen: the files are not stat'ed). */
async function newestFolderMtime(roots: string[]): Promise<number> {
  let newest = 0;
  for (const root of roots) {
    newest = Math.max(newest, (await stat(root)).mtimeMs);
    const subs = (await readdir(root, { withFileTypes: true })).filter((d) => d.isDirectory());
    newest = Math.max(newest, await newestFolderMtime(subs.map((d) => join(root, d.name))));
  }
  return newest;
}

/** The pristine data dir with its index written, by its mtime, within FOLDER_MTIME_RACY_MS of its folders' last change. */
async function racyWhileDown(): Promise<void> {
  await restorePristine();
  const stamp = new Date((await newestFolderMtime([join(dir, 'home', '.claude', 'projects'), join(dir, 'home', '.codex', 'sessions')])) + 500);
  await utimes(join(dir, 'data', 'importers-candidates.idx'), stamp, stamp);
}

async function measure(name: string, bin: string): Promise<Record<string, string | number>[]> {
  if (racyIndex) await racyWhileDown();
  if (persistedIndex) await restorePristine();
  const added = addFile ? await changeWhileDown() : null;
  try {
    return await measureHost(name, bin);
  } finally {
    if (added) await rm(added);
  }
}

async function measureHost(name: string, bin: string): Promise<Record<string, string | number>[]> {
  const host = await startHost(bin);
  try {
    await new Promise((r) => setTimeout(r, settleMs));
    const settled = await status(host.pid!, 'VmHWM');
    const hostCpu = await cpuMs(host.pid!);
    const full = await list(bin, []);
    const afterFull = await status(host.pid!, 'VmHWM');
    const limited = await list(bin, ['--limit', '50']);
    const again = await list(bin, []);
    const afterAll = await status(host.pid!, 'VmHWM');
    const rss = await status(host.pid!, 'VmRSS');
    const row = (measure: string, r: { ms: number; cpuMs: number; mb: number }, peak: number | string) => ({ build: name, measure, 'wall ms': Math.round(r.ms), 'CLI CPU ms': Math.round(r.cpuMs), 'stdout MB': r.mb.toFixed(1), 'host peak MB after': peak });
    return [
      { build: name, measure: `host started, settled ${settleMs} ms (host CPU ${hostCpu} ms)`, 'wall ms': settleMs, 'CLI CPU ms': '', 'stdout MB': '', 'host peak MB after': settled },
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
  if (addFile || racyIndex || persistedIndex) {
    await rm(pristine, { recursive: true, force: true });
    await cp(join(dir, 'data'), pristine, { recursive: true, preserveTimestamps: true });
  }
  if (persistedIndex) {
    const index = (await readCandidateIndex(join(pristine, 'importers-candidates.idx')))!;
    await persistIndex(join(pristine, 'importers-cache.json'), index.entries);
  }
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
