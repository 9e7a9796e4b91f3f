/**
 * Many devices on one local nats-server (issue 13):
 *   1. N device connections, each writing its presence entry; then the presence bucket is read back.
 *   2. M handoffs queued for one offline device (sealed, published, not yet consumed), then that
 *      device's host starts and drains them through the real inbox and receiver; throughput reported.
 * Baseline in the same run: landing the same M sessions locally (what the drain has to do at least).
 *
 * Run: npx tsx bench/relay/fleet.ts [devices] [queued-handoffs]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { addPeer } from '../../src/core/crypto/peers.js';
import { publicPart } from '../../src/core/crypto/identity.js';
import { BROWSER_HOST_CAPABILITIES } from '../../src/core/host/capabilities.js';
import { startHostServices } from '../../src/core/host/host-services.js';
import { landAndReadBack, offerSession } from '../../src/core/handoff/send.js';
import { openStore } from '../../src/core/store/index.js';
import { connectRelay } from '../../src/core/relay/connection.js';
import { PRESENCE_BUCKET } from '../../src/core/relay/resources.js';
import { sendToDevice } from '../../src/core/relay/send-to-device.js';
import { ensureEndpointDir, loadOrCreateToken, resolveEndpoint } from '../../src/core/transport/endpoint.js';
import { connectTo, makeDevice } from '../../src/core/relay/test-support/devices.js';
import { startNatsServer } from '../../src/core/relay/test-support/nats-server.js';
import { printTable } from '../stats.js';

const DEVICES = Number(process.argv[2] ?? 1_000);
const QUEUED = Number(process.argv[3] ?? 1_000);
const server = await startNatsServer();
const admin = await connectTo(server);
const rows: Record<string, string | number>[] = [];
const benchStart = performance.now();
// Progress on stderr so a run cut short still shows how far it got.
const progress = (what: string): void => void process.stderr.write(`[${((performance.now() - benchStart) / 1000).toFixed(1)} s] ${what}\n`);

// 1. Connections and presence.
let started = performance.now();
const connections = [];
for (let i = 0; i < DEVICES; i += 50) {
  const batch = await Promise.all(
    Array.from({ length: Math.min(50, DEVICES - i) }, async (_, j) => {
      const relay = await connectRelay({ version: 1, url: server.url, connectedAt: '' });
      await (await relay.kv(PRESENCE_BUCKET)).put(`d${String(i + j).padStart(20, '0')}`, JSON.stringify({ at: new Date().toISOString() }));
      return relay;
    }),
  );
  connections.push(...batch);
}
const connectMs = performance.now() - started;
progress(`${DEVICES} devices connected`);
let present = 0;
for await (const _ of await (await admin.kv(PRESENCE_BUCKET)).keys()) present++;
rows.push({ step: `${DEVICES} devices connect + presence`, n: DEVICES, 'total ms': connectMs, 'per second': (DEVICES / connectMs) * 1000, check: `${present} present` });
await Promise.all(connections.map((c) => c.close()));

// 2. Queued handoffs drained by one device.
const [sender, target] = [await makeDevice(server, 'sender'), await makeDevice(server, 'target')];
await addPeer(sender.dataDir, publicPart(target.identity));
await addPeer(target.dataDir, publicPart(sender.identity));
const cwd = await mkdtemp(join(tmpdir(), 'baton-fleet-'));
const store = await openStore(sender.dataDir);
const baselineStore = await openStore(await mkdtemp(join(tmpdir(), 'baton-fleet-base-')));
const endpoint = resolveEndpoint(sender.dataDir);
await ensureEndpointDir(endpoint.dir);
const token = await loadOrCreateToken(endpoint.tokenPath);

started = performance.now();
for (let i = 0; i < QUEUED; i++) await landAndReadBack(baselineStore, { cwd, title: `q ${i}`, messages: [{ role: 'user', content: `queued ${i}` }] });
const baselineMs = performance.now() - started;
progress(`baseline: ${QUEUED} landed locally`);
rows.push({ step: 'baseline: land the sessions locally', n: QUEUED, 'total ms': baselineMs, 'per second': (QUEUED / baselineMs) * 1000, check: '' });

const peer = { ...publicPart(target.identity), fingerprint: '', pairedAt: '' };
started = performance.now();
for (let i = 0; i < QUEUED; i++) {
  const landed = await landAndReadBack(store, { cwd, title: `q ${i}`, messages: [{ role: 'user', content: `queued ${i}` }] });
  const local = await offerSession(landed.session.id, { store, endpoint, token, timeoutMs: 1_000, launch: false, dryRun: true }, landed);
  const manifest = (local.answer as { manifest: Record<string, unknown> & { handoff_id: string } }).manifest;
  const r = await sendToDevice({ relay: admin, identity: sender.identity, peer, store, sessionId: landed.session.id, manifest, receiptWaitMs: 0 });
  if (r.status !== 'queued') throw new Error(`expected queued, got ${r.status}`);
  if ((i + 1) % 1_000 === 0) progress(`queued ${i + 1}/${QUEUED}`);
}
const queueMs = performance.now() - started;
rows.push({ step: 'land + seal + queue (target offline)', n: QUEUED, 'total ms': queueMs, 'per second': (QUEUED / queueMs) * 1000, check: '' });

started = performance.now();
const host = await startHostServices({ dataDir: target.dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
await host.relay!.ready;
let reported = 0;
while ((host.relay!.stats?.accepted ?? 0) < QUEUED) {
  await new Promise((r) => setTimeout(r, 50));
  const accepted = host.relay!.stats?.accepted ?? 0;
  if (accepted - reported >= 1_000) progress(`drained ${(reported = accepted)}/${QUEUED}`);
}
const drainMs = performance.now() - started;
const landedAtTarget = (await host.store.list()).length;
rows.push({ step: 'target back online: drain', n: QUEUED, 'total ms': drainMs, 'per second': (QUEUED / drainMs) * 1000, check: `${landedAtTarget} sessions landed` });
printTable(rows);

await host.close();
await store.close();
await baselineStore.close();
await admin.close();
await server.stop();
for (const dir of [sender.dataDir, target.dataDir, cwd, baselineStore.root]) await rm(dir, { recursive: true, force: true });
