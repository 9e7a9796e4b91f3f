/**
 * Issue 15: the resume picker's first screen without a host, two builds alternated round by round in
 * a real pty (pty-screen.ts), each preloading first-frame-gc.cjs: the process's CPU and its garbage
 * collections (scavenges and others, count and ms) up to the first session row. For a change meant to
 * cut the collections before the first frame (bench/README.md, "Eighteenth sitting"); the CPU column
 * carries the profiler's own cost, the same for both builds.
 *
 *   npx tsx bench/importers/picker-frame-gc.ts --dir=/tmp/k18a-full --rounds=15 --before=/tmp/b18-before/bin/baton.js
 *
 * <dir> is candidates.ts's corpus (home/, data/ with a trusted index: run a listing first).
 */
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { timeToScreen } from './pty-screen.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const dir = resolve(args.get('dir') ?? '/tmp/baton-c15/full');
const rounds = Number(args.get('rounds') ?? 15);
const builds = [
  { label: 'before', bin: resolve(args.get('before') ?? '/tmp/b18-before/bin/baton.js') },
  { label: 'now', bin: resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js') },
];
const FRAME_FILE = join(dir, 'first-frame-gc.json');
const preload = resolve(import.meta.dirname, 'first-frame-gc.cjs');
const env: NodeJS.ProcessEnv = { ...process.env, HOME: join(dir, 'home'), BATON_HOME: join(dir, 'data'), XDG_RUNTIME_DIR: join(dir, 'run'), TERM: 'xterm-256color', BATON_BENCH_FRAME_FILE: FRAME_FILE };
const firstRow = /Refactor handler \d+|Session \d+: make the build green/;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** One picker to its first row; the preload's record, read once it is there. */
async function frame(bin: string): Promise<Record<string, number>> {
  await rm(FRAME_FILE, { force: true });
  await timeToScreen(`${process.execPath} --require ${preload} ${bin} resume`, firstRow, { env, cwd: '/home/dev/project' });
  for (let k = 0; k < 50 && !existsSync(FRAME_FILE); k++) await new Promise((done) => setTimeout(done, 20));
  return JSON.parse(await readFile(FRAME_FILE, 'utf8')) as Record<string, number>;
}

const loadavg = async () => (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
console.log(`${new Date().toISOString()}; corpus ${dir}; load average ${await loadavg()}; ${rounds} rounds, builds alternated`);
const samples = new Map(builds.map((b) => [b.label, [] as Record<string, number>[]]));
for (let i = 0; i < rounds; i++) {
  for (const b of i % 2 === 0 ? builds : [...builds].reverse()) samples.get(b.label)!.push(await frame(b.bin));
}
const before = samples.get('before')!;
const now = samples.get('now')!;
console.table(
  Object.keys(now[0]!).map((field) => {
    const diffs = now.map((x, k) => x[field]! - before[k]![field]!);
    return {
      field,
      'before median': Number(median(before.map((x) => x[field]!)).toFixed(2)),
      'now median': Number(median(now.map((x) => x[field]!)).toFixed(2)),
      'paired now − before': Number(median(diffs).toFixed(2)),
      'now lower in': `${diffs.filter((d) => d < 0).length}/${diffs.length}`,
    };
  }),
);
console.log(`load average at the end: ${await loadavg()}`);
