/**
 * Issue 17: the hosted `baton list --json` of an encrypted store (the host's sealed listing file,
 * src/core/store/at-rest/sealed-listing.ts) against the plain store's listing file, same corpus,
 * same run; and the warm listing without a host (--no-host, whole and --limit 50) of both stores. Two hosts (`baton serve`): one on a plain data directory (no Secret Service on its
 * bus), one on an encrypted one (a real gnome-keyring started here). Each listing is a real
 * child process of the built CLI; CPU (user + system, µs resolution) and peak RSS come from the
 * child itself (bench/store/max-rss.cjs), so they hold on a loaded machine where wall time does not.
 *
 *   npm run build && npx tsx bench/importers/hosted-listing-sealed.ts --dir=/tmp/c17h/plain --runs=15 [--bin=…/bin/baton.js]
 *
 * --dir holds home/ (the corpus, see candidates.ts) and a warm plain data/ (candidates.ts made it);
 * the encrypted data directory is made fresh beside it (enc-data/) by one cold listing.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { startSecretService } from '../../src/core/store/at-rest/test-support/secret-service.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const dir = resolve(args.get('dir') ?? '/tmp/c17h/plain');
const runs = Number(args.get('runs') ?? 15);
const BATON = resolve(args.get('bin') ?? resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js'));
const RSS_HOOK = resolve(import.meta.dirname, '..', 'store', 'max-rss.cjs');
const home = join(dir, 'home');

interface Sample {
  ms: number;
  cpuMs: number;
  rssMb: number;
  bytes: number;
}

function run(argv: string[], env: NodeJS.ProcessEnv): Promise<Sample> {
  const rssFile = join(dir, `rss-${Math.random().toString(36).slice(2)}`);
  const t0 = performance.now();
  return new Promise((done, fail) => {
    execFile(process.execPath, argv, { env: { ...env, NODE_OPTIONS: `--require ${RSS_HOOK}`, BATON_BENCH_RSS_FILE: rssFile }, maxBuffer: 256 * 1024 * 1024, encoding: 'buffer' }, async (error, stdout) => {
      const ms = performance.now() - t0;
      if (error) return fail(new Error(`${argv.join(' ')}: ${error.message}`));
      const [kb, us] = (await readFile(rssFile, 'utf8')).split(' ').map(Number);
      await rm(rssFile, { force: true });
      done({ ms, cpuMs: us! / 1000, rssMb: kb! / 1024, bytes: stdout.length });
    });
  });
}

async function startHost(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BATON, 'serve', '--json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((done, fail) => {
    child.stdout!.once('data', () => done());
    child.once('exit', (code) => fail(new Error(`baton serve exited (${code})`)));
  });
  return child;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const service = await startSecretService();
const plainEnv: NodeJS.ProcessEnv = { ...process.env, HOME: home, BATON_HOME: join(dir, 'data'), XDG_RUNTIME_DIR: join(dir, 'run') };
delete plainEnv.DBUS_SESSION_BUS_ADDRESS;
const encEnv: NodeJS.ProcessEnv = { ...process.env, HOME: home, BATON_HOME: join(dir, 'enc-data'), XDG_RUNTIME_DIR: join(dir, 'enc-run'), DBUS_SESSION_BUS_ADDRESS: service.address };
const hosts: ChildProcess[] = [];
try {
  await rm(join(dir, 'enc-data'), { recursive: true, force: true });
  for (const env of [plainEnv, encEnv]) await mkdir(env.XDG_RUNTIME_DIR!, { recursive: true, mode: 0o700 });
  // The encrypted store (a listing alone creates no key: `encrypt --status` opens the store as a
  // writing command does), then its caches, sealed under this run's key: one cold listing without a host.
  await run([BATON, 'encrypt', '--status', '--json'], encEnv);
  await run([BATON, 'list', '--json', '--no-host'], encEnv);
  const encrypted = JSON.parse(await readFile(join(dir, 'enc-data', 'encryption.json'), 'utf8')) as { mode?: string };
  if (encrypted.mode !== 'keyring') throw new Error('the encrypted data directory was not created encrypted');
  for (const env of [plainEnv, encEnv]) hosts.push(await startHost(env));
  const list = [BATON, 'list', '--json'];
  // Each host's first listing renders (and writes its file); the runs below are what a CLI sees after.
  for (const env of [plainEnv, encEnv]) await run(list, env);
  const series: Record<string, Sample[]> = { 'node -e ""': [], 'plain store, host running': [], 'encrypted store, host running (sealed file)': [] };
  // The same stores without asking a host (--no-host): the candidate index read warm, sealed whole in the encrypted one.
  const noHost: Array<[string, string[], NodeJS.ProcessEnv]> = [
    ['plain store, no host', [...list, '--no-host'], plainEnv],
    ['encrypted store, no host', [...list, '--no-host'], encEnv],
    ['plain store, no host, --limit 50', [...list, '--no-host', '--limit', '50'], plainEnv],
    ['encrypted store, no host, --limit 50', [...list, '--no-host', '--limit', '50'], encEnv],
  ];
  for (const [name] of noHost) series[name] = [];
  // Interleaved, so both see the same load.
  for (let i = 0; i < runs; i++) {
    series['node -e ""']!.push(await run(['-e', ''], plainEnv));
    series['plain store, host running']!.push(await run(list, plainEnv));
    series['encrypted store, host running (sealed file)']!.push(await run(list, encEnv));
    for (const [name, argv, env] of noHost) series[name]!.push(await run(argv, env));
  }
  const files = await Promise.all([join(dir, 'data', 'listings'), join(dir, 'enc-data', 'listings')].map((d) => import('node:fs/promises').then((fs) => fs.readdir(d).catch(() => []))));
  console.log(`\nhosted baton list --json, ${runs} runs interleaved, medians; listings folders: plain ${JSON.stringify(files[0])}, encrypted ${JSON.stringify(files[1])}; load ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}\n`);
  // Each encrypted row against the plain row of the same command; node -e "" against the hosted plain row.
  const baselineOf = (measure: string): Sample[] =>
    series[measure.startsWith('encrypted') ? measure.replace('encrypted', 'plain').replace(' (sealed file)', '') : measure === 'node -e ""' ? 'plain store, host running' : measure]!;
  console.table(
    Object.entries(series).map(([measure, samples]) => ({
      measure,
      'wall ms': median(samples.map((s) => s.ms)).toFixed(0),
      'wall vs plain': (median(samples.map((s) => s.ms)) / median(baselineOf(measure).map((s) => s.ms))).toFixed(2),
      'CPU ms': median(samples.map((s) => s.cpuMs)).toFixed(1),
      'CPU vs plain': (median(samples.map((s) => s.cpuMs)) / median(baselineOf(measure).map((s) => s.cpuMs))).toFixed(2),
      'peak RSS MB': median(samples.map((s) => s.rssMb)).toFixed(0),
      'stdout MB': (median(samples.map((s) => s.bytes)) / 1e6).toFixed(1),
    })),
  );
} finally {
  for (const h of hosts) h.kill('SIGTERM');
  await service.stop();
}
