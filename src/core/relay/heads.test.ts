import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRelay, type Relay } from './connection.js';
import { claimHead, readHead } from './heads.js';
import { connectTo, makeDevice, type TestDevice } from './test-support/devices.js';
import { startNatsServer, type NatsServerHandle } from './test-support/nats-server.js';
import { startTcpProxy } from './test-support/tcp-proxy.js';

let server: NatsServerHandle;
let relayA: Relay;
let relayB: Relay;
let a: TestDevice;
let b: TestDevice;

beforeAll(async () => {
  server = await startNatsServer();
  relayA = await connectTo(server);
  relayB = await connectTo(server);
  [a, b] = [await makeDevice(server, 'a'), await makeDevice(server, 'b')];
});
afterAll(async () => {
  await relayA?.close();
  await relayB?.close();
  await server?.stop();
  for (const d of [a, b]) if (d) await rm(d.dataDir, { recursive: true, force: true });
});

describe('claims across devices (KV compare-and-set, real nats-server)', () => {
  it('two devices claiming from the same head: exactly one winner, the loser gets CONFLICT naming the holder (100 rounds)', async () => {
    let aWins = 0;
    for (let round = 0; round < 100; round++) {
      const sessionId = `s-race-${round}`;
      const seen = round % 2 ? await readHead(relayA, sessionId) : null; // from nothing, and from an existing head
      if (round % 2) expect(seen).toBeUndefined();
      if (round % 4 === 3) await claimHead(relayA, sessionId, a.identity);
      const head = await readHead(relayA, sessionId);
      const [ra, rb] = await Promise.all([claimHead(relayA, sessionId, a.identity, head ?? null), claimHead(relayB, sessionId, b.identity, head ?? null)]);
      expect([ra.ok, rb.ok].filter(Boolean)).toHaveLength(1);
      const loser = ra.ok ? rb : ra;
      const winner = ra.ok ? a : b;
      if (ra.ok) aWins++;
      expect(loser).toMatchObject({ ok: false, code: 'CONFLICT', head: { holder: winner.identity.deviceId } });
      expect(!loser.ok && loser.message).toContain(winner.identity.deviceId);
      expect((await readHead(relayB, sessionId))!.head.holder).toBe(winner.identity.deviceId);
    }
    expect(aWins).toBeGreaterThan(0);
  });

  it('refuses a stale holder\'s writes: a write from the head it saw loses to the newer holder', async () => {
    const first = await claimHead(relayA, 's-stale', a.identity);
    expect(first.ok).toBe(true);
    const seenByA = await readHead(relayA, 's-stale');
    const second = await claimHead(relayB, 's-stale', b.identity);
    expect(second).toMatchObject({ ok: true, head: { epoch: first.head.epoch + 1 } });
    // A still believes it holds epoch 1: its compare-and-set on that revision is refused, naming B.
    const stale = await claimHead(relayA, 's-stale', a.identity, seenByA);
    expect(stale).toMatchObject({ ok: false, code: 'CONFLICT', head: { holder: b.identity.deviceId, epoch: first.head.epoch + 1 } });
    expect((await readHead(relayA, 's-stale'))!.head.holder).toBe(b.identity.deviceId);
  });

  it('a partition during a claim still leaves exactly one holder', async () => {
    const proxy = await startTcpProxy(server.port);
    const partitioned = await connectRelay({ version: 1, url: proxy.url, connectedAt: '' }, { timeoutMs: 1_500 });
    try {
      const sessionId = 's-partition';
      const head = await readHead(partitioned, sessionId);
      proxy.block();
      // A's claim is cut off mid-flight (it may or may not have reached the server); B claims meanwhile.
      const [ra, rb] = await Promise.allSettled([claimHead(partitioned, sessionId, a.identity, head ?? null), claimHead(relayB, sessionId, b.identity, head ?? null)]);
      proxy.unblock();
      const final = (await readHead(relayB, sessionId))!;
      const aWon = ra.status === 'fulfilled' && ra.value.ok;
      const bWon = rb.status === 'fulfilled' && rb.value.ok;
      expect(aWon && bWon).toBe(false);
      expect(bWon).toBe(true); // B's path was never cut
      expect(final.head.holder).toBe(b.identity.deviceId);
      // A, whatever it believes, cannot write as holder: its write from the head it saw is refused.
      expect(await claimHead(relayB, sessionId, a.identity, head ?? null)).toMatchObject({ ok: false, code: 'CONFLICT', head: { holder: b.identity.deviceId } });
    } finally {
      await partitioned.nc.close().catch(() => undefined);
      await proxy.close();
    }
  });
});
