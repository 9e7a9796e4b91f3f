// The receiver's answer to one offer, in process, with and without the host's long-lived git
// shell (issue 20, thirteenth sitting: src/core/workspace/git-spawner.ts). Each round offers a
// fresh 150-message session (landed beforehand, a dirty repository as in cli-process.ts) to a
// receiver without the spawner and to one with it, alternating which goes first, on one store.
// Per offer: wall ms of the answer, this process's CPU ms (process.cpuUsage), and the longest
// event-loop stall while it ran (monitorEventLoopDelay max): the synchronous fork of a spawn
// shows there. --ballast=MB keeps that many MB of small objects alive first, as a host's heap
// is (a fork copies the page tables of the whole process).
//
//   npx tsx bench/handoff/receiver-offer.ts [rounds] [--ballast=MB]
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createReceiver } from '../../src/core/handoff/receiver.js';
import { createHandoffFixture } from '../../src/core/handoff/test-support/handoff-fixture.js';
import { GitSpawner } from '../../src/core/workspace/git-spawner.js';
import { percentile, printTable } from '../stats.js';
import { makeBenchRepo } from './bench-repo.js';

const ROUNDS = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 20);
const BALLAST_MB = Number(process.argv.find((a) => a.startsWith('--ballast='))?.slice('--ballast='.length) ?? 0);

const ballast: { id: number; name: string }[][] = [];
for (let mb = 0; mb < BALLAST_MB; mb++) ballast.push(Array.from({ length: 16_000 }, (_, i) => ({ id: i, name: `entry ${mb}/${i}` })));

const fixture = await createHandoffFixture();
const work = fixture.workDir;
await makeBenchRepo(work);

const spawner = new GitSpawner().start();
const receivers = {
  'spawn from the receiver (before)': createReceiver({ store: fixture.store, capabilities: ['conversation', 'diff-viewer'], holder: 'desktop' }),
  'host git shell (after)': createReceiver({ store: fixture.store, capabilities: ['conversation', 'diff-viewer'], holder: 'desktop', gitSpawner: spawner }),
};
type Name = keyof typeof receivers;
const names = Object.keys(receivers) as Name[];
const samples = new Map<Name, { wall: number; cpu: number; stall: number }[]>(names.map((n) => [n, []]));
const connection = { signal: new AbortController().signal };
const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();

for (let round = -2; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? names : [...names].reverse();
  for (const name of order) {
    const { manifest } = await fixture.landed(150);
    await new Promise((resolve) => setTimeout(resolve, 20));
    histogram.reset();
    const cpu = process.cpuUsage();
    const started = performance.now();
    const answer = await receivers[name]({ id: 'b', method: 'handoff.offer', params: { manifest } }, connection);
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    if ((answer as { status?: string }).status !== 'accepted' || !(answer as { workspace?: unknown }).workspace) throw new Error(`offer not accepted: ${JSON.stringify(answer)}`);
    // The first two rounds warm both (zod, the code paths, the shell): not counted.
    if (round >= 0) samples.get(name)!.push({ wall, cpu: (used.user + used.system) / 1000, stall: histogram.max / 1e6 });
  }
}
histogram.disable();
spawner.close();
await fixture.dispose();

console.log(`rounds ${ROUNDS}, ballast ${BALLAST_MB} MB, rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB, spawner batches ${spawner.batchesRun}`);
printTable(
  names.map((name) => {
    const s = samples.get(name)!;
    const p = (key: 'wall' | 'cpu' | 'stall', q: number) => percentile(s.map((x) => x[key]), q).toFixed(2);
    return { receiver: name, n: s.length, 'answer p50 ms': p('wall', 0.5), p90: p('wall', 0.9), 'CPU p50 ms': p('cpu', 0.5), 'longest stall p50 ms': p('stall', 0.5), 'stall p90': p('stall', 0.9) };
  }),
);
