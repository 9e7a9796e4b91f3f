import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPeers } from '../crypto/peers.js';
import type { Relay } from './connection.js';
import { relayTasks, type RelayTasks } from './relay-tasks.js';
import { TASKS_BUCKET } from './resources.js';
import { batonCli } from './test-support/baton-cli.js';
import { connectTo, makeDevice, pairDevices, type TestDevice } from './test-support/devices.js';
import { startNatsServer, type NatsServerHandle } from './test-support/nats-server.js';

/** The two-terminal scenario across two devices, each with its own relay connection (real nats-server). */
let server: NatsServerHandle;
let relayA: Relay;
let relayB: Relay;
let a: TestDevice;
let b: TestDevice;
let onA: RelayTasks;
let onB: RelayTasks;

beforeAll(async () => {
  server = await startNatsServer();
  relayA = await connectTo(server);
  relayB = await connectTo(server);
  [a, b] = [await makeDevice(server, 'a'), await makeDevice(server, 'b')];
  await pairDevices(relayA, a, b);
  onA = relayTasks(relayA, a.identity, () => readPeers(a.dataDir));
  onB = relayTasks(relayB, b.identity, () => readPeers(b.dataDir));
});
afterAll(async () => {
  await relayA?.close();
  await relayB?.close();
  await server?.stop();
  for (const d of [a, b]) if (d) await rm(d.dataDir, { recursive: true, force: true });
});

describe('tasks across devices', () => {
  it('init on A, complete on B, check on A: the result is delivered once, to A only; A sees the change through a watch, promptly', async () => {
    const changes: Array<{ id: string; state: string; at: number }> = [];
    const stop = await onA.watch((c) => changes.push({ ...c, at: Date.now() }));
    const { taskId, epoch } = await onA.register({ id: 'task-build-1', command: 'npm run build --secret-flag-kiwi', leaseTtlMs: 30_000 });
    await onB.heartbeat(taskId, epoch);
    const completedAt = Date.now();
    await onB.complete(taskId, epoch, { status: 'completed', exitCode: 0, result: { artifact: 'dist-mango-7731.tgz' } });
    // Asked of the product: within 1 s. Allowed here: 5 s, for a loaded CI machine's late timers and
    // fsyncs (the wait is longer still, so that a late change fails on the bound, with its time).
    await expect.poll(() => changes.some((c) => c.id === taskId && c.state === 'completed'), { timeout: 10_000, interval: 20 }).toBe(true);
    expect(changes.find((c) => c.state === 'completed')!.at - completedAt).toBeLessThan(5_000);
    stop();

    await expect(onB.result(taskId)).rejects.toMatchObject({ code: 'NOT_ASKER' });
    const first = await onA.result(taskId);
    expect(first).toMatchObject({ state: 'completed', firstDelivery: true, outcome: { exitCode: 0, result: { artifact: 'dist-mango-7731.tgz' } } });
    const again = await onA.result(taskId);
    expect(again).toMatchObject({ firstDelivery: false, receipt: first.receipt });
    // Neither the command nor the result is readable on the relay's disk.
    for (const needle of ['secret-flag-kiwi', 'dist-mango-7731']) {
      expect(() => execFileSync('grep', ['-rl', '--binary-files=text', needle, server.storeDir])).toThrow();
    }
  });

  it('a deleted state is reported as a failure, never as an empty success', async () => {
    const { taskId } = await onA.register({ command: 'x', leaseTtlMs: 30_000 });
    await (await relayA.kv(TASKS_BUCKET)).purge(taskId);
    await expect(onA.result(taskId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(onB.heartbeat(taskId, 1)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('concurrent writes from two devices: exactly one wins, the other gets CONFLICT (30 rounds)', async () => {
    for (let round = 0; round < 30; round++) {
      const { taskId, epoch } = await onA.register({ command: `race ${round}`, leaseTtlMs: 30_000 });
      const results = await Promise.allSettled([
        onA.complete(taskId, epoch, { status: 'completed', exitCode: 0 }),
        onB.complete(taskId, epoch, { status: 'failed', exitCode: 1 }),
      ]);
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(['CONFLICT', 'FINISHED']).toContain(lost[0]!.reason.code);
    }
  });

  it('no heartbeat: the lease expires, the task shows orphaned and tells the agent to stop', async () => {
    // A lease a heartbeat through nats-server meets on a loaded machine; then it lapses, polled for.
    const { taskId, epoch } = await onA.register({ command: 'dev server', leaseTtlMs: 2_000 });
    await onB.heartbeat(taskId, epoch);
    await expect.poll(async () => (await onA.view(taskId)).state, { timeout: 15_000, interval: 100 }).toBe('orphaned');
    await expect(onB.heartbeat(taskId, epoch)).rejects.toMatchObject({ code: 'ORPHANED', stop: true });
    await expect(onB.complete(taskId, epoch, { status: 'completed', exitCode: 0 })).rejects.toMatchObject({ stop: true });
    await expect(onA.result(taskId)).rejects.toMatchObject({ code: 'ORPHANED' });
    expect((await onA.view(taskId)).epoch).toBe(epoch + 1); // fenced
  });
});

describe('baton task --relay (real CLI processes, two data directories)', () => {
  it('register on A, complete on B, result on A once; a deleted state fails; an orphaned task tells the agent to stop', async () => {
    const reg = await batonCli(a.dataDir, ['task', 'register', '--relay', '--id', 'task-cli-1', '--command', 'make test', '--json']);
    expect(reg.code, reg.stdout + reg.stderr).toBe(0);
    expect(reg.json).toMatchObject({ taskId: 'task-cli-1', epoch: 1 });
    const done = await batonCli(b.dataDir, ['task', 'complete', 'task-cli-1', '--epoch', '1', '--relay', '--result', '{"passed":42}', '--json']);
    expect(done.code, done.stdout + done.stderr).toBe(0);
    const result = await batonCli(a.dataDir, ['task', 'result', 'task-cli-1', '--relay', '--json']);
    expect(result.code).toBe(0);
    expect(result.json).toMatchObject({ state: 'completed', firstDelivery: true, outcome: { result: { passed: 42 } } });
    const again = await batonCli(a.dataDir, ['task', 'result', 'task-cli-1', '--relay', '--json']);
    expect(again.json).toMatchObject({ firstDelivery: false, receipt: result.json.receipt });

    await (await relayA.kv(TASKS_BUCKET)).purge('task-cli-1');
    const gone = await batonCli(a.dataDir, ['task', 'result', 'task-cli-1', '--relay', '--json']);
    expect(gone.code).toBe(1);
    expect(gone.json).toMatchObject({ ok: false, code: 'NOT_FOUND' });

    await batonCli(a.dataDir, ['task', 'register', '--relay', '--id', 'task-cli-2', '--command', 'serve', '--ttl', '300', '--json']);
    await new Promise((r) => setTimeout(r, 500));
    const beat = await batonCli(b.dataDir, ['task', 'heartbeat', 'task-cli-2', '--epoch', '1', '--relay', '--json']);
    expect(beat.code).toBe(3);
    expect(beat.json).toMatchObject({ ok: false, code: 'ORPHANED' });
  });
});
