// Opening a store that holds many sessions and receipts, as every `baton handoff` does (issue 20,
// "CLI start-up"): the open's sweep of dead writers' temp files lists sessions/ and receipts/,
// which grow with every session and every handoff received. This tree's open against another
// tree's (--before=OTHER/src), alternating in the same rounds, on the same store: the time until
// openStore resolves (what a command waits for) and until close() (the sweep included).
//
//   npx tsx bench/handoff/store-open-sweep.ts [entries=10000] [runs=15] [--before=/tmp/b12-before/src]
//
// The store holds `entries` session directories and as many receipt files (empty: the open reads
// neither), and one dead writer's temp file in each swept directory.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { percentile, printTable } from '../stats.js';

const [entries = 10_000, runs = 15] = process.argv.slice(2).filter((a) => /^\d+$/.test(a)).map(Number);
const before = process.argv.find((a) => a.startsWith('--before='))?.slice('--before='.length);
type OpenStore = typeof import('../../src/core/store/index.js').openStore;
const load = async (src: string): Promise<OpenStore> => ((await import(pathToFileURL(join(src, 'core', 'store', 'index.ts')).href)) as { openStore: OpenStore }).openStore;
const trees = [...(before ? [{ name: 'before', open: await load(resolve(before)) }] : []), { name: before ? 'after' : 'this tree', open: await load(resolve(import.meta.dirname, '..', '..', 'src')) }];

const root = await mkdtemp(join(tmpdir(), 'baton-bench-sweep-'));
await (await trees[0]!.open(root, { keyStore: null })).close();
for (let i = 0; i < entries; i++) {
  const id = `${i.toString(36).padStart(6, '0')}-0123456789abcdef`;
  await mkdir(join(root, 'sessions', `s-mx${id}`));
  await writeFile(join(root, 'receipts', `hmx${id}.json`), '{}');
}
const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
const plantLeftovers = () => Promise.all(['', 'sessions', 'receipts'].map((d) => writeFile(join(root, d, `.x.json.${deadPid}.0123abcd.tmp`), 'x')));

const samples = new Map(trees.map((t) => [t.name, { open: [] as number[], closed: [] as number[], cpu: [] as number[] }]));
for (let round = 0; round < runs + 1; round++) {
  for (const tree of trees) {
    await plantLeftovers();
    const cpu = process.cpuUsage();
    const started = performance.now();
    const store = await tree.open(root, { keyStore: null });
    const opened = performance.now() - started;
    await store.close();
    const closed = performance.now() - started;
    const used = process.cpuUsage(cpu);
    if (round === 0) continue; // warm-up: each tree's modules compiled once
    const s = samples.get(tree.name)!;
    s.open.push(opened);
    s.closed.push(closed);
    s.cpu.push((used.user + used.system) / 1000);
  }
}
printTable(
  trees.map((t) => {
    const s = samples.get(t.name)!;
    return { tree: t.name, entries, n: s.open.length, 'open p50 ms': percentile(s.open, 0.5), 'open + close p50 ms': percentile(s.closed, 0.5), 'CPU p50 ms': percentile(s.cpu, 0.5) };
  }),
);
await rm(root, { recursive: true, force: true });
