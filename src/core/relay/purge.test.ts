import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Base64UrlPaddedCodec } from '@nats-io/obj';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_HOST_CAPABILITIES } from '../host/capabilities.js';
import { startHostServices } from '../host/host-services.js';
import type { Relay } from './connection.js';
import { claimHead } from './heads.js';
import { ALL_BUCKETS, ALL_STREAMS, BLOBS_STORE } from './resources.js';
import { batonCli } from './test-support/baton-cli.js';
import { connectTo, makeDevice, pairDevices, type TestDevice } from './test-support/devices.js';
import { startNatsServer, type NatsServerHandle } from './test-support/nats-server.js';

let server: NatsServerHandle;
let relay: Relay;
let a: TestDevice;
let b: TestDevice;
let cwd: string;

beforeAll(async () => {
  server = await startNatsServer();
  relay = await connectTo(server);
  [a, b] = [await makeDevice(server, 'laptop'), await makeDevice(server, 'devbox')];
  await pairDevices(relay, a, b);
  cwd = await mkdtemp(join(tmpdir(), 'baton-purge-cwd-'));
});
afterAll(async () => {
  await relay?.close();
  await server?.stop();
  for (const dir of [a?.dataDir, b?.dataDir, cwd]) if (dir) await rm(dir, { recursive: true, force: true });
});

/** Every subject in every Baton stream (decoding object names), every blob name and every head/task value. */
async function everythingOnTheRelay(): Promise<string[]> {
  const seen: string[] = [];
  const streams = [...ALL_STREAMS, ...ALL_BUCKETS.map((b) => `KV_${b}`), `OBJ_${BLOBS_STORE}`];
  for (const name of streams) {
    const info = await relay.jsm.streams.info(name, { subjects_filter: '>' });
    for (const subject of Object.keys(info.state.subjects ?? {})) {
      seen.push(subject);
      const meta = /^\$O\.[^.]+\.M\.(.+)$/.exec(subject);
      if (meta) {
        const decoded = Base64UrlPaddedCodec.decode(meta[1]!);
        seen.push(typeof decoded === 'string' ? decoded : Buffer.from(decoded).toString('utf8'));
      }
      const msg = await relay.jsm.streams.getMessage(name, { last_by_subj: subject }).catch(() => null);
      if (msg && name !== `OBJ_${BLOBS_STORE}`) seen.push(msg.string());
    }
  }
  for (const consumer of await relay.jsm.consumers.list(ALL_STREAMS[0]).next()) seen.push(consumer.name);
  return seen;
}

describe('baton relay purge', () => {
  it('removes every message, receipt, blob, head, presence entry and consumer of the device, and reports it', async () => {
    // A is also a target (consumer + presence); B sends to A and A sends to B, small and large.
    const hostA = await startHostServices({ dataDir: a.dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
    const hostB = await startHostServices({ dataDir: b.dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
    try {
      await Promise.all([hostA.relay!.ready, hostB.relay!.ready]);
      const input = Array.from({ length: 10 }, (_, i) => JSON.stringify({ role: 'user', content: `${i} ${'z'.repeat(40_000)}` })).join('\n');
      const toB = await batonCli(a.dataDir, ['handoff', '--to', 'devbox', '--cwd', cwd, '--json', '--title', 'to b', '--messages', '-'], { input });
      expect(toB.json, toB.stderr).toMatchObject({ category: 'accepted' });
      const toA = await batonCli(b.dataDir, ['handoff', '--to', 'laptop', '--cwd', cwd, '--json', '--title', 'to a', '--messages', '-'], { input: '{"role":"user","content":"hi"}' });
      expect(toA.json, toA.stderr).toMatchObject({ category: 'accepted' });
      await claimHead(relay, 's-claimed-by-a', a.identity);
      await claimHead(relay, 's-claimed-by-b', b.identity);
    } finally {
      await hostA.close();
      await hostB.close();
    }
    const before = await everythingOnTheRelay();
    expect(before.some((s) => s.includes(a.identity.deviceId))).toBe(true);

    const purged = await batonCli(a.dataDir, ['relay', 'purge', '--json']);
    expect(purged.code, purged.stdout + purged.stderr).toBe(0);
    expect(purged.json.removed).toMatchObject({ consumers: 1, presence: 1, blobs: 1 });
    const removed = purged.json.removed as Record<string, number>;
    expect(removed.handoffMessages).toBeGreaterThanOrEqual(2);
    expect(removed.receipts).toBeGreaterThanOrEqual(2);
    expect(removed.heads).toBeGreaterThanOrEqual(2); // A's claim and the head of the session A received

    const after = await everythingOnTheRelay();
    expect(after.filter((s) => s.includes(a.identity.deviceId))).toEqual([]);
    // B's own claim (never held by A) stays.
    expect(after.some((s) => s.includes('s-claimed-by-b'))).toBe(true);
  });
});
