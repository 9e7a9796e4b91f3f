import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_HOST_CAPABILITIES } from '../host/capabilities.js';
import { startHostServices, type HostServices } from '../host/host-services.js';
import { openStore } from '../store/index.js';
import { seal } from '../crypto/seal.js';
import type { Relay } from './connection.js';
import { sealFor, SEAL_KIND } from './handoff-envelope.js';
import { handoffSubject } from './resources.js';
import { claimHead } from './heads.js';
import { batonCli } from './test-support/baton-cli.js';
import { connectTo, makeDevice, pairDevices, type TestDevice } from './test-support/devices.js';
import { startNatsServer, type NatsServerHandle } from './test-support/nats-server.js';

/**
 * Two data directories as two devices on a real nats-server: A hands off with the real CLI, B runs
 * the host services with the relay inbox. Then the security checks on what reached the server.
 */
let server: NatsServerHandle;
let relay: Relay;
let a: TestDevice;
let b: TestDevice;
let c: TestDevice;
let cwd: string;
let host: HostServices | undefined;
const SECRET_TITLE = 'Refactor the zebra-quartz billing module';
const SECRET_TEXT = 'please look at ultraviolet-pangolin-4471 in the ledger';

beforeAll(async () => {
  server = await startNatsServer();
  relay = await connectTo(server);
  [a, b, c] = [await makeDevice(server, 'laptop'), await makeDevice(server, 'devbox'), await makeDevice(server, 'stranger')];
  await pairDevices(relay, a, b);
  cwd = await mkdtemp(join(tmpdir(), 'baton-relay-cwd-secretpath-'));
});
afterAll(async () => {
  await host?.close();
  await relay?.close();
  await server?.stop();
  for (const dir of [a?.dataDir, b?.dataDir, c?.dataDir, cwd]) if (dir) await rm(dir, { recursive: true, force: true });
});

async function startB(): Promise<HostServices> {
  host = await startHostServices({ dataDir: b.dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
  await host.relay!.ready;
  expect(host.relay!.state).toBe('online');
  return host;
}

function messages(n: number, text = SECRET_TEXT): string {
  return Array.from({ length: n }, (_, i) => JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: `${text} #${i}` })).join('\n');
}

async function handoff(args: string[], input?: string) {
  return batonCli(a.dataDir, ['handoff', '--to', 'devbox', '--cwd', cwd, '--json', '--timeout', '8', ...args], input === undefined ? {} : { input });
}

async function waitFor<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('handoff --to a paired device', () => {
  let sessionId: string;

  it('lands locally, is delivered sealed, and the target verifies and accepts it', async () => {
    const services = await startB();
    const run = await handoff(['--title', SECRET_TITLE, '--messages', '-'], messages(12));
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.json).toMatchObject({ category: 'accepted', exitCode: 0 });
    sessionId = run.json.sessionId as string;
    // A kept its copy; B has the same conversation, marked with the sender.
    const storeA = await openStore(a.dataDir);
    const localRecords = await storeA.readMessages(sessionId);
    await storeA.close();
    const doc = await services.store.getSession(sessionId);
    expect(doc).toMatchObject({ title: SECRET_TITLE, messageCount: 12, relayedFrom: { deviceId: a.identity.deviceId, name: 'laptop' } });
    expect((await services.store.readMessages(sessionId)).map((r) => r.crc)).toEqual(localRecords.map((r) => r.crc));
    expect(await services.store.getReceipt(run.json.handoffId as string)).toMatchObject({ answer: { status: 'accepted' } });
    expect(services.relay!.stats).toMatchObject({ accepted: 1 });
    // What the UI shows: relay online, the received count, and the paired device (A runs no host: offline).
    const status = await services.dispatch('relay:status', {});
    expect(status).toMatchObject({ ok: true, value: { configured: true, state: 'online', device: { name: 'devbox' }, received: { accepted: 1 } } });
    const devices = await services.dispatch('devices:list', {});
    expect(devices).toMatchObject({ ok: true, value: [{ name: 'laptop', online: false }] });
  });

  it('answers duplicate when the same handoff is sent again, and lands nothing new', async () => {
    const again = await handoff(['--session', sessionId]);
    expect(again.code, again.stdout).toBe(0);
    expect(again.json).toMatchObject({ category: 'duplicate', sessionId });
    expect((await host!.store.list()).filter((r) => r.id === sessionId)).toHaveLength(1);
  });

  it('queues for an offline device and delivers once when it returns', async () => {
    await host!.close();
    host = undefined;
    const queued = await batonCli(a.dataDir, ['handoff', '--to', 'devbox', '--cwd', cwd, '--json', '--timeout', '1', '--title', 'offline one', '--messages', '-'], { input: messages(3) });
    expect(queued.code).toBe(8);
    expect(queued.json).toMatchObject({ category: 'queued' });
    const offlineId = queued.json.sessionId as string;
    const services = await startB();
    await waitFor(async () => ((await services.store.getReceipt(queued.json.handoffId as string)) ? true : undefined));
    expect((await services.store.list()).filter((r) => r.id === offlineId)).toHaveLength(1);
    const resent = await handoff(['--session', offlineId]);
    expect(resent.json).toMatchObject({ category: 'duplicate' });
    expect(services.relay!.stats!.accepted).toBe(1);
  });

  it('sends a large session through the Object Store', async () => {
    const big = await handoff(['--title', 'big one', '--messages', '-'], messages(40, 'x'.repeat(20_000)));
    expect(big.code, big.stdout).toBe(0);
    expect(big.json.durationsMs).toHaveProperty('upload');
    expect((await host!.store.getSession(big.json.sessionId as string)).messageCount).toBe(40);
  });

  it('refuses to send a session another device holds (stale holder): CONFLICT naming the holder', async () => {
    const saved = await batonCli(a.dataDir, ['handoff', '--dry-run', '--cwd', cwd, '--json', '--title', 'held elsewhere', '--messages', '-'], { input: messages(2) });
    const heldId = saved.json.sessionId as string;
    await claimHead(relay, heldId, c.identity);
    const run = await handoff(['--session', heldId]);
    expect(run.code).toBe(5);
    expect(run.json).toMatchObject({ category: 'conflict' });
    expect(run.json.message).toContain(`an unpaired device ${c.identity.deviceId} holds session`);
    expect((await host!.store.list()).some((r) => r.id === heldId)).toBe(false);
  });

  it('a paired device other than the target holds the session: CONFLICT shows its name and id', async () => {
    const d = await makeDevice(server, 'desktop');
    try {
      await pairDevices(relay, a, d);
      const saved = await batonCli(a.dataDir, ['handoff', '--dry-run', '--cwd', cwd, '--json', '--title', 'held by desktop', '--messages', '-'], { input: messages(2) });
      const heldId = saved.json.sessionId as string;
      expect((await claimHead(relay, heldId, d.identity)).ok).toBe(true);
      const run = await handoff(['--session', heldId]);
      expect(run.code).toBe(5);
      expect(run.json).toMatchObject({ category: 'conflict', answer: { holder: { deviceId: d.identity.deviceId, name: 'desktop' } } });
      expect(run.json.message).toContain(`CONFLICT: desktop (${d.identity.deviceId}) holds session ${heldId}`);
      expect((await host!.store.list()).some((r) => r.id === heldId)).toBe(false);
    } finally {
      await rm(d.dataDir, { recursive: true, force: true });
    }
  });

  it('refuses an unknown device without sending anything', async () => {
    const run = await handoff(['--title', 'x', '--messages', '-'], messages(1));
    expect(run.code).toBe(0);
    const unknown = await batonCli(a.dataDir, ['handoff', '--to', 'nobody', '--cwd', cwd, '--json', '--messages', '-'], { input: messages(1) });
    expect(unknown.code).toBe(10);
    expect(unknown.json).toMatchObject({ category: 'not_paired' });
  });

  it('drops unsigned, unpaired, tampered and wrong-subject messages and counts them', async () => {
    const stats = host!.relay!.stats!;
    const before = { ...stats.dropped };
    const manifest = { handoff_id: 'h-forged', session_id: 's-forged' };
    const payload = { handoffId: 'h-forged', sessionId: 's-forged', manifest, senderName: 'x', bundle: {} };
    // A third device that never paired.
    await relay.js.publish(handoffSubject(b.identity.deviceId, c.identity.deviceId), sealFor(c.identity, b.identity, SEAL_KIND.handoff, 'h-forged', payload), { msgID: 'h-forged' });
    // A's real envelope, tampered.
    const good = JSON.parse(sealFor(a.identity, b.identity, SEAL_KIND.handoff, 'h-t', { ...payload, handoffId: 'h-t' }).toString()) as Record<string, string>;
    const tampered = { ...good, ct: `${good.ct!.slice(0, 10)}${good.ct![10] === 'A' ? 'B' : 'A'}${good.ct!.slice(11)}` };
    await relay.js.publish(handoffSubject(b.identity.deviceId, a.identity.deviceId), Buffer.from(JSON.stringify(tampered)), { msgID: 'h-t' });
    // Unsigned.
    const { sig: _s, ...unsigned } = seal({ sender: a.identity, recipient: b.identity, kind: SEAL_KIND.handoff, context: 'h-u', plaintext: Buffer.from('{}') });
    await relay.js.publish(handoffSubject(b.identity.deviceId, a.identity.deviceId), Buffer.from(JSON.stringify(unsigned)), { msgID: 'h-u' });
    // Signed by A but published as if from C.
    await relay.js.publish(handoffSubject(b.identity.deviceId, c.identity.deviceId), sealFor(a.identity, b.identity, SEAL_KIND.handoff, 'h-s', { ...payload, handoffId: 'h-s' }), { msgID: 'h-s' });
    // Sealed for C, delivered to B (wrong key).
    await relay.js.publish(handoffSubject(b.identity.deviceId, a.identity.deviceId), sealFor(a.identity, { ...c.identity, deviceId: b.identity.deviceId }, SEAL_KIND.handoff, 'h-w', { ...payload, handoffId: 'h-w' }), { msgID: 'h-w' });
    // A replay: an old valid message republished under a new message id.
    await relay.js.publish(handoffSubject(b.identity.deviceId, a.identity.deviceId), sealFor(a.identity, b.identity, SEAL_KIND.handoff, 'h-old', { ...payload, handoffId: 'h-old' }), { msgID: 'h-replayed' });
    const delta = (code: string) => (stats.dropped[code] ?? 0) - (before[code] ?? 0);
    await waitFor(async () => (Object.values(stats.dropped).reduce((x, y) => x + y, 0) - Object.values(before).reduce((x, y) => x + y, 0) >= 6 ? true : undefined));
    expect(delta('UNKNOWN_SENDER')).toBe(1);
    expect(delta('BAD_SIGNATURE')).toBe(2); // tampered + replay under another id (the id is signed)
    expect(delta('UNSIGNED')).toBe(1);
    expect(delta('SPOOFED_SUBJECT')).toBe(1);
    expect(delta('WRONG_KEY')).toBe(1);
    expect((await host!.store.list()).some((r) => r.id === 's-forged')).toBe(false);
  });

  it('a removed device is refused from then on', async () => {
    expect((await batonCli(b.dataDir, ['device', 'remove', 'laptop', '--json'])).code).toBe(0);
    const before = host!.relay!.stats!.dropped.UNKNOWN_SENDER ?? 0;
    const run = await batonCli(a.dataDir, ['handoff', '--to', 'devbox', '--cwd', cwd, '--json', '--timeout', '2', '--title', 'after removal', '--messages', '-'], { input: messages(2) });
    expect(run.json).toMatchObject({ category: 'queued' });
    await waitFor(async () => ((host!.relay!.stats!.dropped.UNKNOWN_SENDER ?? 0) > before ? true : undefined));
    expect((await host!.store.list()).some((r) => r.id === run.json.sessionId)).toBe(false);
  });

  it('pairs from the app: devices:pair on the host, then the CLI joins; devices:join refuses a used code', async () => {
    const d = await makeDevice(server, 'phone');
    try {
      const events: string[] = [];
      const off = host!.onUiEvent((event) => events.push(event));
      const started = await host!.dispatch('devices:pair', {});
      expect(started.ok).toBe(true);
      const { code } = (started as { value: { code: string } }).value;
      const joined = await batonCli(d.dataDir, ['device', 'join', code, '--json']);
      expect(joined.json).toMatchObject({ ok: true, device: { name: 'devbox' } });
      await waitFor(async () => (events.includes('devices:changed') ? true : undefined));
      off();
      const listed = (await host!.dispatch('devices:list', {})) as { value: Array<{ name: string }> };
      expect(listed.value.map((x) => x.name)).toContain('phone');
      expect(await host!.dispatch('devices:join', { code })).toMatchObject({ ok: false, error: { code: 'CODE_UNKNOWN' } });
    } finally {
      await rm(d.dataDir, { recursive: true, force: true });
    }
  });

  it('leaves no title, message text, path or file content in plaintext in the server store', () => {
    // Control: the grep does see the store (subjects carry device ids in the clear).
    expect(execFileSync('grep', ['-rl', '--binary-files=text', b.identity.deviceId, server.storeDir], { encoding: 'utf8' })).not.toBe('');
    for (const needle of [SECRET_TITLE, 'zebra-quartz', SECRET_TEXT, 'ultraviolet-pangolin', cwd, 'secretpath', 'offline one']) {
      let found = '';
      try {
        found = execFileSync('grep', ['-rl', '--binary-files=text', needle, server.storeDir], { encoding: 'utf8' });
      } catch (error) {
        expect((error as { status?: number }).status).toBe(1); // 1 = no match
      }
      expect(found, `"${needle}" found in ${found}`).toBe('');
    }
  });
});
