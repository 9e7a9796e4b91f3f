// A dirty work tree's capture inside a host (issue 20, fifteenth sitting): the capture a hosted
// handoff runs, with the host's long-lived git shell (src/core/workspace/git-spawner.ts) carrying
// both rounds of git — this tree — against another tree's capture (--before-src: its own
// spawner, which carried the first round only and forked /bin/sh from the host for the temporary
// index's round), alternating which goes first, in one process. Per capture: wall ms, this
// process's CPU ms (process.cpuUsage: a fork's page-table copy is charged here), the longest
// event-loop stall while it ran (monitorEventLoopDelay max: a spawn's fork stops the loop) and
// the host's own child processes started (spawn / execFile calls). --ballast=MB keeps that many MB
// of small objects alive first, as a host's heap is (a fork copies the page tables of all of it).
//
//   npx tsx bench/handoff/host-capture.ts [rounds] --before-src=OTHER/src [--ballast=MB]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { percentile, printTable } from '../stats.js';
import { makeBenchRepo } from './bench-repo.js';

const ROUNDS = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 30);
const BALLAST_MB = Number(process.argv.find((a) => a.startsWith('--ballast='))?.slice('--ballast='.length) ?? 0);
const BEFORE_SRC = process.argv.find((a) => a.startsWith('--before-src='))?.slice('--before-src='.length);
if (!BEFORE_SRC) throw new Error('host-capture: --before-src=OTHER/src is required (the tree to compare against)');

const ballast: { id: number; name: string }[][] = [];
for (let mb = 0; mb < BALLAST_MB; mb++) ballast.push(Array.from({ length: 16_000 }, (_, i) => ({ id: i, name: `entry ${mb}/${i}` })));

type CaptureModule = typeof import('../../src/core/workspace/capture.js');
type SpawnerModule = typeof import('../../src/core/workspace/git-spawner.js');
async function variant(src: string) {
  const capture = (await import(pathToFileURL(join(src, 'core', 'workspace', 'capture.ts')).href)) as CaptureModule;
  const { GitSpawner } = (await import(pathToFileURL(join(src, 'core', 'workspace', 'git-spawner.ts')).href)) as SpawnerModule;
  return { capture: capture.captureWorkspaceWithPatch, spawner: new GitSpawner().start() };
}
const variants = {
  before: await variant(resolve(BEFORE_SRC)),
  after: await variant(resolve(import.meta.dirname, '..', '..', 'src')),
};
type Name = keyof typeof variants;
const names = Object.keys(variants) as Name[];

const root = await mkdtemp(join(tmpdir(), 'baton-bench-capture-'));
const work = join(root, 'work');
await makeBenchRepo(work);

/** Child processes this process starts (its git shells are started before the rounds). */
// The CommonJS object is writable; syncBuiltinESMExports makes the ES module's bindings (what capture imports) follow it.
const { createRequire, syncBuiltinESMExports } = await import('node:module');
const childProcess = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
let started = 0;
for (const name of ['spawn', 'execFile'] as const) {
  const real = childProcess[name] as (...args: unknown[]) => unknown;
  (childProcess as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
    started++;
    return real(...args);
  };
}
syncBuiltinESMExports();

const samples = new Map<Name, { wall: number; cpu: number; stall: number; children: number }[]>(names.map((n) => [n, []]));
const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();
for (let round = -3; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? names : [...names].reverse();
  for (const name of order) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    histogram.reset();
    const children = started;
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    const { patchBytes } = await variants[name].capture(work, { spawner: variants[name].spawner });
    const wall = performance.now() - t0;
    const used = process.cpuUsage(cpu);
    if (!patchBytes?.length) throw new Error(`${name}: the capture has no patch`);
    // The first rounds warm both (the code paths, the shells): not counted.
    if (round >= 0) samples.get(name)!.push({ wall, cpu: (used.user + used.system) / 1000, stall: histogram.max / 1e6, children: started - children });
  }
}
histogram.disable();
for (const v of Object.values(variants)) v.spawner.close();
await rm(root, { recursive: true, force: true });

console.log(`rounds ${ROUNDS}, ballast ${BALLAST_MB} MB, rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB, load ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);
printTable(
  names.map((name) => {
    const s = samples.get(name)!;
    const p = (key: 'wall' | 'cpu' | 'stall' | 'children', q: number) => percentile(s.map((x) => x[key]), q).toFixed(2);
    return { capture: name, n: s.length, 'wall p50 ms': p('wall', 0.5), p90: p('wall', 0.9), 'CPU p50 ms': p('cpu', 0.5), 'longest stall p50 ms': p('stall', 0.5), 'stall p90': p('stall', 0.9), 'host children p50': p('children', 0.5) };
  }),
);
