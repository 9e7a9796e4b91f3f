/**
 * Issue 15, a cold listing's scan worker by its young generation (scan-pool.ts WORKER_LIMITS,
 * limits.ts SCAN_WORKER_YOUNG_MB): the built worker (dist/cli/scan-worker.cjs, `node
 * scripts/build-cli.js` first) summarizes the same files under each `--young` size, the sizes
 * alternated round by round so each sees the same load and page cache. Per size: this process's
 * CPU over the worker's tasks (the worker's parse, digest, redaction and GC; this thread only posts
 * the tasks and takes the replies, the same work for every size), wall, and the worker's heap at
 * the end (its own `getHeapStatistics`, posted back by the bench's wrapper).
 *
 *   npx tsx bench/importers/cold-worker-gc.ts --dir=/tmp/c15f/full --files=6000 --rounds=9 --young=6,16,32
 *
 * Reads <dir>/home only. Jobs as a cold CLI listing sends them (POOL_TASK_FILES per task, both tools).
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { discoverSessionFiles } from '../../src/core/importers/discover.js';
import { POOL_TASK_FILES } from '../../src/core/importers/limits.js';
import { locateAgentDirs } from '../../src/core/importers/locate.js';
import { nodeImportReader } from '../../src/core/importers/reader.js';
import { WORKER_READY, type ScanTask, type ScanTaskReply } from '../../src/core/importers/scan-worker-protocol.js';
import type { SummarizeJob } from '../../src/core/importers/summarize-jobs.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const dir = resolve(args.get('dir') ?? '/tmp/c15f/full');
const files = Number(args.get('files') ?? 6000);
const rounds = Number(args.get('rounds') ?? 9);
const sizes = (args.get('young') ?? '6,16,32').split(',').map(Number);
const WORKER = resolve(import.meta.dirname, '..', '..', 'dist', 'cli', 'scan-worker.cjs');
// Workers inherit execArgv: under tsx they would load its hooks too, which a listing's worker does not.
process.execArgv.length = 0;

/** The built worker, with a reply to 'heap?' (its heap statistics) in front of it. */
const wrapper = join(tmpdir(), `baton-cold-worker-gc-${process.pid}.cjs`);
writeFileSync(
  wrapper,
  `const { parentPort } = require('node:worker_threads'); const v8 = require('node:v8');
parentPort.on('message', (m) => { if (m === 'heap?') parentPort.postMessage({ heap: v8.getHeapStatistics() }); });
require(${JSON.stringify(WORKER)});`,
);

interface Sample {
  cpu: number;
  wall: number;
  heapMb: number;
}

async function once(jobs: readonly SummarizeJob[], youngMb: number): Promise<Sample> {
  const worker = new Worker(wrapper, { workerData: { nice: 0 }, resourceLimits: { maxYoungGenerationSizeMb: youngMb } });
  const replies: Array<(m: unknown) => void> = [];
  let ready!: () => void;
  const up = new Promise<void>((done) => (ready = done));
  worker.on('message', (m: unknown) => {
    if (m === WORKER_READY) return ready();
    replies.shift()?.(m);
  });
  const ask = <T,>(message: unknown): Promise<T> =>
    new Promise<T>((done) => {
      replies.push(done as (m: unknown) => void);
      worker.postMessage(message);
    });
  await up;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let from = 0, id = 0; from < jobs.length; from += POOL_TASK_FILES, id++) {
    const task: ScanTask = { id, jobs: jobs.slice(from, from + POOL_TASK_FILES) };
    const reply = await ask<ScanTaskReply>(task);
    if (reply.results.length !== task.jobs.length) throw new Error('a short reply');
  }
  const wall = performance.now() - t0;
  const used = process.cpuUsage(cpu0);
  const { heap } = await ask<{ heap: { total_heap_size: number } }>('heap?');
  await worker.terminate();
  return { cpu: (used.user + used.system) / 1000, wall, heapMb: heap.total_heap_size / 2 ** 20 };
}

async function main(): Promise<void> {
  const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`corpus ${dir}/home, ${files} files, young ${sizes.join(' / ')} MB; load average ${load()}`);
  const found = await discoverSessionFiles(nodeImportReader, locateAgentDirs({ HOME: join(dir, 'home') }));
  // Both tools, as a listing's tasks hold them after its first batch: every k-th file.
  const step = Math.max(1, Math.floor(found.files.length / files));
  const jobs: SummarizeJob[] = [];
  for (let i = 0; i < found.files.length && jobs.length < files; i += step) {
    const f = found.files[i]!;
    if (f.compressed) continue;
    const s = statSync(f.path);
    jobs.push({ path: f.path, source: f.source, size: s.size, mtimeMs: s.mtimeMs });
  }
  const samples = new Map<number, Sample[]>(sizes.map((y) => [y, []]));
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? sizes : [...sizes].reverse();
    for (const y of order) samples.get(y)!.push(await once(jobs, y));
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
  console.table(
    sizes.map((y) => {
      const s = samples.get(y)!;
      return { 'young MB': y, rounds: s.length, 'CPU ms (median)': Math.round(median(s.map((x) => x.cpu))), 'wall ms (median)': Math.round(median(s.map((x) => x.wall))), 'worker heap MB (median)': Math.round(median(s.map((x) => x.heapMb)) * 10) / 10 };
    }),
  );
  const [base, ...others] = sizes;
  for (const y of others) {
    const paired = samples.get(y)!.map((s, k) => s.cpu - samples.get(base!)![k]!.cpu);
    console.log(`${y} MB − ${base} MB, paired by round: median ${Math.round(median(paired))} ms of CPU, lower in ${paired.filter((d) => d < 0).length} of ${paired.length}`);
  }
  console.log(`load average at the end: ${load()}`);
}

await main();
