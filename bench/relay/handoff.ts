/**
 * Handoff across devices through a local nats-server (issue 13), against the local-only work it
 * adds to. Both devices run in this process (A sends, B's host inbox receives), so the CPU work of
 * both sides is serialised on one event loop: a conservative figure.
 *
 *   baseline      land the session + build its manifest (what every handoff does before sending)
 *   --to device   the same + seal, upload (Object Store above 256 KiB), publish, and B's inbox:
 *                 verify, decrypt, land, receiver check, claim, sealed receipt; until A reads it
 *
 * Run: npx tsx bench/relay/handoff.ts [runs]
 * Encryption at rest (issue 17): BATON_BENCH_AT_REST=on starts the test Secret Service
 * (gnome-keyring on a private D-Bus bus) so both devices' stores are encrypted; =off points D-Bus
 * at nothing so both are not. Unset: whatever this machine's secret store gives.
 * `npx tsx bench/relay/handoff-at-rest.ts [runs]` runs both and prints them side by side.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { BROWSER_HOST_CAPABILITIES } from '../../src/core/host/capabilities.js';
import { startHostServices } from '../../src/core/host/host-services.js';
import { landAndReadBack, offerSession } from '../../src/core/handoff/send.js';
import { openStore } from '../../src/core/store/index.js';
import { ensureEndpointDir, loadOrCreateToken, resolveEndpoint } from '../../src/core/transport/endpoint.js';
import { handoffToDevice } from '../../src/core/relay/handoff-to-device.js';
import { connectTo, makeDevice, pairDevices } from '../../src/core/relay/test-support/devices.js';
import { startNatsServer } from '../../src/core/relay/test-support/nats-server.js';
import { startSecretService } from '../../src/core/store/at-rest/test-support/secret-service.js';
import { printTable, summarize } from '../stats.js';

const RUNS = Number(process.argv[2] ?? 30);
const BIG_RUNS = Math.max(3, Math.round(RUNS / 6));
const WARMUP = 3;

const atRest = process.env.BATON_BENCH_AT_REST;
const secretService = atRest === 'on' ? await startSecretService() : undefined;
if (atRest === 'off') process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/baton-bench-no-bus';

const server = await startNatsServer();
const setup = await connectTo(server);
const [a, b] = [await makeDevice(server, 'bench-a'), await makeDevice(server, 'bench-b')];
await pairDevices(setup, a, b);
await setup.close();
const cwd = await mkdtemp(join(tmpdir(), 'baton-bench-relay-'));
const store = await openStore(a.dataDir);
const endpoint = resolveEndpoint(a.dataDir);
await ensureEndpointDir(endpoint.dir);
const token = await loadOrCreateToken(endpoint.tokenPath);
const host = await startHostServices({ dataDir: b.dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
await host.relay!.ready;
if (atRest === 'on' || atRest === 'off') {
  for (const [who, state] of [['device A', store.atRest.state], ['device B', (host.store as unknown as { atRest: { state: string } }).atRest.state]] as const) {
    if (state !== atRest) throw new Error(`${who}'s store is encrypted=${state}, BATON_BENCH_AT_REST=${atRest} asked otherwise`);
  }
}

let serial = 0;
function conversation(count: number, chars: number) {
  serial++;
  return Array.from({ length: count }, (_, i) => ({ role: i % 2 ? ('assistant' as const) : ('user' as const), content: `${serial}.${i} ${'lorem ipsum '.repeat(Math.ceil(chars / 12)).slice(0, chars)}` }));
}

async function baseline(count: number, chars: number): Promise<number> {
  const started = performance.now();
  const landed = await landAndReadBack(store, { cwd, title: `bench ${serial}`, messages: conversation(count, chars) });
  await offerSession(landed.session.id, { store, endpoint, token, timeoutMs: 5_000, launch: false, dryRun: true }, landed);
  return performance.now() - started;
}

const relayOnly: number[] = [];
async function toDevice(count: number, chars: number): Promise<number> {
  const started = performance.now();
  const landed = await landAndReadBack(store, { cwd, title: `bench ${serial}`, messages: conversation(count, chars) });
  const sendStarted = performance.now();
  const outcome = await handoffToDevice({ dataDir: a.dataDir, store, sessionId: landed.session.id, landed, to: 'bench-b', offer: { endpoint, token, timeoutMs: 10_000 }, receiptWaitMs: 10_000 });
  if (outcome.category !== 'accepted') throw new Error(`handoff ${outcome.category}: ${outcome.message}`);
  relayOnly.push(performance.now() - sendStarted);
  return performance.now() - started;
}

/** CPU (user+system) of this process per measured run, by sample: both devices' work, on a shared machine. */
let lastCpuPerRun = 0;
async function sample(fn: () => Promise<number>, runs: number, warmup: number): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const out: number[] = [];
  const cpuAt = process.cpuUsage();
  for (let i = 0; i < runs; i++) out.push(await fn());
  const cpu = process.cpuUsage(cpuAt);
  lastCpuPerRun = (cpu.user + cpu.system) / 1000 / runs;
  return out;
}

const rows: Record<string, string | number>[] = [];
const cases = [
  { name: '150 messages (~60 KB)', count: 150, chars: 400, runs: RUNS },
  { name: '10 MB session (10 × 1 MB)', count: 10, chars: 1_000_000, runs: BIG_RUNS },
];
for (const c of cases) {
  const base = summarize(await sample(() => baseline(c.count, c.chars), c.runs, WARMUP));
  const baseCpu = lastCpuPerRun;
  relayOnly.length = 0;
  const relay = summarize(await sample(() => toDevice(c.count, c.chars), c.runs, WARMUP));
  const relayCpu = lastCpuPerRun;
  const sendOnly = summarize(relayOnly.slice(WARMUP));
  rows.push({ case: c.name, path: 'baseline: land + manifest', n: base.n, 'p50 ms': base.p50, 'p95 ms': base.p95, 'CPU ms/run': baseCpu, '× baseline': 1 });
  rows.push({ case: c.name, path: 'land + --to device (until receipt)', n: relay.n, 'p50 ms': relay.p50, 'p95 ms': relay.p95, 'CPU ms/run': relayCpu, '× baseline': relay.p50 / base.p50 });
  rows.push({ case: c.name, path: '--to device only (after landing)', n: sendOnly.n, 'p50 ms': sendOnly.p50, 'p95 ms': sendOnly.p95, 'CPU ms/run': '', '× baseline': sendOnly.p50 / base.p50 });
}
printTable(rows);
if (process.env.BATON_BENCH_JSON) console.log(`JSON ${JSON.stringify(rows)}`);

await host.close();
await store.close();
await server.stop();
for (const dir of [a.dataDir, b.dataDir, cwd]) await rm(dir, { recursive: true, force: true });
await secretService?.stop();
