/**
 * Durable appends per second with 1 KB records: group commit (many appends in flight share one
 * fsync) against one fsync per record (each append awaited before the next), same store, same disk.
 * Run: npx tsx bench/store/appends.ts
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { openStore } from '../../src/core/store/index.js';
import { median, percentile, printTable } from './stats.js';

const RECORD_BYTES = 1024;
const GROUP_RECORDS = 40_000;
const GROUP_IN_FLIGHT = 512;
const SERIAL_RECORDS = 1_000;
const RUNS = 5;

const content = 'x'.repeat(RECORD_BYTES - 150); // ~1 KB once encoded with seq, id, crc, createdAt
await mkdir('bench/.data', { recursive: true });
const dir = await mkdtemp(join('bench/.data', 'appends-'));
const store = await openStore(join(dir, 'store'));

async function run(total: number, inFlight: number): Promise<{ perSec: number; latencies: number[] }> {
  const s = await store.createSession({ cwd: '/bench', gitRoot: null, branch: null, title: 'bench', source: { tool: 'baton' }, holder: 'terminal' });
  const latencies: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < total) {
        next += 1;
        const t = performance.now();
        await store.append(s.id, 1, [{ role: 'assistant', content }]);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { perSec: total / ((performance.now() - t0) / 1000), latencies };
}

const serial: number[] = [];
const group: number[] = [];
const serialLat: number[] = [];
const groupLat: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const a = await run(SERIAL_RECORDS, 1);
  serial.push(a.perSec);
  serialLat.push(...a.latencies);
  const b = await run(GROUP_RECORDS, GROUP_IN_FLIGHT);
  group.push(b.perSec);
  groupLat.push(...b.latencies);
}
await store.close();
await rm(dir, { recursive: true, force: true });

printTable(`Durable appends, 1 KB records, ${RUNS} runs each (records/s; latency of one append in ms)`, ['mode', 'median rec/s', 'p95-low rec/s', 'median ms', 'p95 ms', 'ratio to baseline'], [
  ['one fsync per record (baseline)', median(serial), percentile(serial, 5), median(serialLat), percentile(serialLat, 95), 1],
  [`group commit, ${GROUP_IN_FLIGHT} in flight`, median(group), percentile(group, 5), median(groupLat), percentile(groupLat, 95), median(group) / median(serial)],
]);
