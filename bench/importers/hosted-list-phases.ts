/**
 * Issue 15: where the CPU of a hosted `baton list --json` goes, phase by phase, each a child
 * process run alternately with `node -e ""` in the same run. Each child preloads
 * bench/store/max-rss.cjs and reports its own CPU time (user + system, µs) on exit, so the
 * differences between rows are the phases' costs:
 *
 *   node -e ""            Node's own start
 *   launcher + bundle     bin/load-cli.js compiling dist/cli/baton-list.cjs with its code cache, then exit
 *   copy only             the host's newest listing file copied to fd 1 (readSync + writeSync, 1 MB)
 *   hosted --limit 50     the whole fast path with a one-frame answer (socket, token, proofs, request)
 *   hosted full           the whole fast path with the 5.5 MB listing file copied
 *
 *   npx tsx bench/importers/hosted-list-phases.ts --dir=/tmp/k15h/full --runs=15 [--bin=bin/baton.js]
 *
 * A `baton serve` must run on <dir> (HOME, BATON_HOME, XDG_RUNTIME_DIR under <dir> as below);
 * the corpus is candidates.ts's.
 */
import { execFile } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '')).map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] as [string, string]));
const dir = resolve(args.get('dir') ?? '/tmp/k15h/full');
const runs = Number(args.get('runs') ?? 15);
const bin = resolve(args.get('bin') ?? join(import.meta.dirname, '..', '..', 'bin', 'baton.js'));
const loadCli = join(dirname(bin), 'load-cli.js');
const data = join(dir, 'data');
const preload = resolve(import.meta.dirname, '..', 'store', 'max-rss.cjs');
const cpuFile = join(dir, 'hosted-phases-cpu.txt');
const env = { ...process.env, HOME: join(dir, 'home'), BATON_HOME: data, XDG_RUNTIME_DIR: join(dir, 'run'), BATON_BENCH_RSS_FILE: cpuFile };

const listings = join(data, 'listings');
const newest = readdirSync(listings)
  .filter((f) => f.endsWith('.json'))
  .map((f) => join(listings, f))
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
if (!newest) throw new Error(`no listing file in ${listings}: run one hosted \`baton list --json\` first`);

const copy = `const fs=require('node:fs');const fd=fs.openSync(${JSON.stringify(newest)},'r');const b=Buffer.allocUnsafe(1<<20);for(let p=0,n;(n=fs.readSync(fd,b,0,b.length,p))>0;p+=n)fs.writeSync(1,b.subarray(0,n));`;
const phases: Array<[string, string[]]> = [
  ['node -e ""', ['-e', '']],
  ['launcher + bundle', ['-e', `require(${JSON.stringify(loadCli)}).loadFastList();process.exit(0)`]],
  ['copy only', ['-e', copy]],
  ['hosted --limit 50', [bin, 'list', '--json', '--limit', '50']],
  ['hosted full', [bin, 'list', '--json']],
];

function run(argv: string[]): Promise<{ ms: number; cpuMs: number; bytes: number }> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    execFile(process.execPath, ['--require', preload, ...argv], { env, maxBuffer: 512 * 1024 * 1024, encoding: 'buffer' }, async (error, stdout, stderr) => {
      const ms = performance.now() - t0;
      if (error) return fail(new Error(`${argv.join(' ')}: ${error.message}\n${stderr.toString()}`));
      const cpuUs = Number((await readFile(cpuFile, 'utf8')).split(' ')[1]);
      done({ ms, cpuMs: cpuUs / 1000, bytes: stdout.length });
    });
  });
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
const loadavg = async () => (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
console.log(`corpus ${dir}; bin ${bin}; load average ${await loadavg()}; ${runs} runs of each, alternated`);
const samples = new Map(phases.map(([name]) => [name, [] as Array<{ ms: number; cpuMs: number; bytes: number }>]));
for (let i = 0; i < runs; i++) for (const [name, argv] of phases) samples.get(name)!.push(await run(argv));
const base = median(samples.get('node -e ""')!.map((s) => s.cpuMs));
console.table(
  [...samples].map(([phase, s]) => ({
    phase,
    'wall median ms': Math.round(median(s.map((x) => x.ms))),
    'CPU median ms': Number(median(s.map((x) => x.cpuMs)).toFixed(1)),
    'CPU min ms': Number(Math.min(...s.map((x) => x.cpuMs)).toFixed(1)),
    'CPU above node ms': Number((median(s.map((x) => x.cpuMs)) - base).toFixed(1)),
    'stdout MB': (s[0]!.bytes / 2 ** 20).toFixed(2),
  })),
);
console.log(`load average at the end: ${await loadavg()}`);
