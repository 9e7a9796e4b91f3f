/**
 * Issue 15, eighteenth sitting: zod and secretlint's preset out of the list and resume bundles, into
 * side bundles loaded at their first use (scripts/build-cli.js zodOnFirstUse, secretlintOnFirstUse).
 * Two builds alternated round by round, each measure in a fresh process:
 *
 *   load     read + compile (with the shipped cache) + top level of the list and resume bundles
 *            (bin/load-cli.js compileList / compileResume), the child's own CPU (process.cpuUsage)
 *            and the scavenges during it (count and ms, from a PerformanceObserver)
 *   parse    a whole `baton list --json --no-host --no-agents` whose rows come from session.json
 *            files (the store's index and journal gone): it parses, so `now` loads baton-zod.cjs
 *   cold     a whole cold `baton list --json --no-host` of <cold> (a fresh data dir each run; under
 *            512 new files the scan redacts in this thread, so `now` loads baton-secretlint.cjs);
 *            user + sys from /usr/bin/time (10 ms ticks) and the child's own CPU (µs)
 *
 *   npx tsx bench/importers/side-bundles.ts --before=/tmp/b18-before/bin/baton.js --cold=/tmp/k18a-cold --rounds=15 [--only=cold]
 *
 * --only=WORD: only the measures whose name holds WORD (load, parse, cold).
 *
 * The paired column is now − before in the same round (adjacent processes), its median over rounds.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const rounds = Number(args.get('rounds') ?? 15);
const cold = resolve(args.get('cold') ?? '/tmp/k18a-cold');
const builds = [
  { label: 'before', bin: resolve(args.get('before') ?? '/tmp/b18-before/bin/baton.js') },
  { label: 'now', bin: resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js') },
];
const preload = resolve(import.meta.dirname, '..', 'store', 'max-rss.cjs');

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function exec(file: string, argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ stdout: string; stderr: string }> {
  return new Promise((done, fail) =>
    execFile(file, argv, { env, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => (error ? fail(new Error(`${argv.join(' ')}: ${error.message}\n${stderr}`)) : done({ stdout, stderr }))),
  );
}

/**
 * read + compile + top level of `compile` (compileList, compileResume) of the build's loader, in a
 * fresh process: its CPU (process.cpuUsage, all its threads) and the young-generation collections
 * (count, ms) during it. GC entries from a PerformanceObserver made before the clock starts: with
 * --trace-gc V8 refuses the code cache (its flags differ from the build's).
 */
async function load(bin: string, compile: string): Promise<Record<string, number>> {
  const loader = join(dirname(bin), 'load-cli.js');
  const script = `const { PerformanceObserver, constants } = require('node:perf_hooks'); const gcs = []; new PerformanceObserver((list) => gcs.push(...list.getEntries())).observe({ entryTypes: ['gc'] });
const t = process.cpuUsage(); const w = performance.now(); const loaded = require(${JSON.stringify(loader)}).${compile}(); const c = process.cpuUsage(t); const wallMs = performance.now() - w;
setImmediate(() => { const minor = gcs.filter((e) => e.detail.kind === constants.NODE_PERFORMANCE_GC_MINOR); process.stderr.write('RESULT ' + JSON.stringify({ cpuMs: (c.user + c.system) / 1000, wallMs, scavenges: minor.length, scavengeMs: minor.reduce((a, e) => a + e.duration, 0), rejected: loaded.script.cachedDataRejected ? 1 : 0 }) + '\\n'); });`;
  const { stderr } = await exec(process.execPath, ['-e', script]);
  return JSON.parse(/RESULT (.*)/.exec(stderr)![1]!) as Record<string, number>;
}

/** A whole listing's CPU (µs from the preload) and /usr/bin/time's user + sys, in `env`. */
async function listing(bin: string, env: NodeJS.ProcessEnv, flags: string[]): Promise<Record<string, number>> {
  const cpuFile = env.BATON_BENCH_RSS_FILE!;
  const { stderr } = await exec('/usr/bin/time', ['-f', 'TIME %U %S', process.execPath, '--require', preload, bin, 'list', '--json', '--no-host', ...flags], env);
  const [user, sys] = /TIME ([\d.]+) ([\d.]+)/.exec(stderr)!.slice(1).map(Number) as [number, number];
  const cpuUs = Number((await readFile(cpuFile, 'utf8')).split(' ')[1]);
  return { cpuMs: cpuUs / 1000, timeMs: (user + sys) * 1000 };
}

const scratch = await mkdtemp(join(tmpdir(), 'k18a-side-bundles-'));
const base = { ...process.env, HOME: join(scratch, 'empty-home'), XDG_RUNTIME_DIR: join(scratch, 'run'), BATON_BENCH_RSS_FILE: join(scratch, 'cpu.txt') };
// The parsing store: a handoff lands one session (whole CLI of `now`), then its index and journal go.
const parseData = join(scratch, 'parse-data');
const messages = join(scratch, 'm.jsonl');
await writeFile(messages, '{"role":"user","content":"parsed at the listing"}\n');
await exec(process.execPath, [builds[1]!.bin, 'handoff', '--cwd', scratch, '--title', 'parsed', '--messages', messages, '--no-launch', '--json', '--timeout', '0'], { ...base, BATON_HOME: parseData }).catch(() => undefined);
await rm(join(parseData, 'index.json'), { force: true });
await rm(join(parseData, 'index.journal.jsonl'), { force: true });

type Measure = { name: string; run: (bin: string) => Promise<Record<string, number>> };
const measures: Measure[] = [
  { name: 'load list bundle', run: (bin) => load(bin, 'compileList') },
  { name: 'load resume bundle', run: (bin) => load(bin, 'compileResume') },
  { name: 'parse (list, rows from session.json)', run: (bin) => listing(bin, { ...base, BATON_HOME: parseData }, ['--no-agents']) },
  {
    name: `cold list of ${cold}`,
    run: async (bin) => {
      const data = join(scratch, 'cold-data');
      await rm(data, { recursive: true, force: true });
      return listing(bin, { ...base, HOME: join(cold, 'home'), BATON_HOME: data }, []);
    },
  },
];

const only = args.get('only');
if (only) measures.splice(0, measures.length, ...measures.filter((m) => m.name.includes(only)));

const loadavg = async () => (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
console.log(`${new Date().toISOString()}; load average ${await loadavg()}; ${rounds} rounds, builds alternated`);
const samples = new Map<string, Record<string, number>[]>();
for (let i = 0; i < rounds; i++) {
  for (const m of measures) {
    for (const b of i % 2 === 0 ? builds : [...builds].reverse()) {
      const key = `${m.name}|${b.label}`;
      if (!samples.has(key)) samples.set(key, []);
      samples.get(key)!.push(await m.run(b.bin));
    }
  }
}
const rows = [];
for (const m of measures) {
  const before = samples.get(`${m.name}|before`)!;
  const now = samples.get(`${m.name}|now`)!;
  for (const field of Object.keys(now[0]!)) {
    const diffs = now.map((x, k) => x[field]! - before[k]![field]!);
    rows.push({
      measure: m.name,
      field,
      'before median': Number(median(before.map((x) => x[field]!)).toFixed(2)),
      'now median': Number(median(now.map((x) => x[field]!)).toFixed(2)),
      'paired now − before': Number(median(diffs).toFixed(2)),
      'now lower in': `${diffs.filter((d) => d < 0).length}/${diffs.length}`,
    });
  }
}
console.table(rows);
console.log(`load average at the end: ${await loadavg()}`);
await rm(scratch, { recursive: true, force: true });
