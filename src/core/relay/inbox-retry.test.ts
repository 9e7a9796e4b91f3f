import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { landAndReadBack, offerSession } from '../handoff/send.js';
import { openStore } from '../store/index.js';
import { ensureEndpointDir, loadOrCreateToken, resolveEndpoint } from '../transport/endpoint.js';
import type { Relay } from './connection.js';
import { RETRIES_EXHAUSTED, startDeviceInbox } from './device-inbox.js';
import { readPeers } from '../crypto/peers.js';
import { sendToDevice } from './send-to-device.js';
import { batonCli } from './test-support/baton-cli.js';
import { connectTo, makeDevice, pairDevices, type TestDevice } from './test-support/devices.js';
import { startNatsServer, type NatsServerHandle } from './test-support/nats-server.js';

/** Lowered from DEFAULT_INBOX_RETRY so the whole ladder runs in about two seconds. */
const RETRY = { maxDeliveries: 4, baseMs: 200, maxMs: 1_000 };

let server: NatsServerHandle;
let relay: Relay;
let sender: TestDevice;
let target: TestDevice;
let cwd: string;

beforeAll(async () => {
  server = await startNatsServer();
  relay = await connectTo(server);
  [sender, target] = [await makeDevice(server, 'laptop'), await makeDevice(server, 'devbox')];
  await pairDevices(relay, sender, target);
  cwd = await mkdtemp(join(tmpdir(), 'baton-retry-cwd-'));
});
afterAll(async () => {
  await relay?.close();
  await server?.stop();
  for (const dir of [sender?.dataDir, target?.dataDir, cwd]) if (dir) await rm(dir, { recursive: true, force: true });
});

describe('inbox redelivery (real nats-server)', () => {
  it('a handoff that fails the same way every time is retried with backoff, then terminated and counted as dropped in relay status', async () => {
    // Queue one real sealed handoff for the target while its inbox is not running.
    const senderStore = await openStore(sender.dataDir);
    const endpoint = resolveEndpoint(sender.dataDir);
    await ensureEndpointDir(endpoint.dir);
    const token = await loadOrCreateToken(endpoint.tokenPath);
    const landed = await landAndReadBack(senderStore, { cwd, title: 'always fails', messages: [{ role: 'user', content: 'hello' }] });
    const local = await offerSession(landed.session.id, { store: senderStore, endpoint, token, timeoutMs: 1_000, launch: false, dryRun: true }, landed);
    const manifest = (local.answer as { manifest: Record<string, unknown> & { handoff_id: string } }).manifest;
    const peer = (await readPeers(sender.dataDir)).find((p) => p.deviceId === target.identity.deviceId)!;
    const sent = await sendToDevice({ relay, identity: sender.identity, peer, store: senderStore, sessionId: landed.session.id, manifest, receiptWaitMs: 0 });
    expect(sent.status).toBe('queued');
    await senderStore.close();

    // The target's receiver throws every time (as a full disk would): not a reason to distrust the message.
    const targetStore = await openStore(target.dataDir);
    const calls: number[] = [];
    const inbox = await startDeviceInbox({
      relay,
      identity: target.identity,
      dataDir: target.dataDir,
      store: targetStore,
      retry: RETRY,
      receive: async () => {
        calls.push(Date.now());
        throw new Error('ENOSPC: no space left on device');
      },
    });
    const deadline = Date.now() + 15_000;
    while (!inbox.stats.dropped[RETRIES_EXHAUSTED] && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(inbox.stats.dropped).toEqual({ [RETRIES_EXHAUSTED]: 1 });
    expect(calls).toHaveLength(RETRY.maxDeliveries);
    // Backoff: each wait roughly doubles (jitter keeps it within [50 %, 100 %] of 200, 400, 800 ms).
    const gaps = calls.slice(1).map((t, i) => t - calls[i]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(90);
    expect(gaps[2]!).toBeGreaterThan(gaps[0]!);
    expect(gaps[2]!).toBeGreaterThanOrEqual(390);

    // Terminated: never delivered again, nothing pending on the consumer.
    await new Promise((r) => setTimeout(r, 2 * RETRY.maxMs));
    expect(calls).toHaveLength(RETRY.maxDeliveries);
    expect(inbox.stats.accepted).toBe(0);
    await inbox.stop();
    const events = (await targetStore.readEvents()).filter((e) => e.category === 'dropped');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ reason: RETRIES_EXHAUSTED });
    expect(String(events[0]!.message)).toContain(`failed ${RETRY.maxDeliveries} times; last: ENOSPC`);
    await targetStore.close();

    const status = await batonCli(target.dataDir, ['relay', 'status', '--json']);
    expect(status.code, status.stdout + status.stderr).toBe(0);
    expect(status.json).toMatchObject({ dropped: { [RETRIES_EXHAUSTED]: 1 } });
    const human = await batonCli(target.dataDir, ['relay', 'status']);
    expect(human.stdout).toContain(`incoming handoffs dropped: ${RETRIES_EXHAUSTED} 1`);
  });
});
