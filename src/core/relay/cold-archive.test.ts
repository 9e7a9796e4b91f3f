import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/index.js';
import type { Relay } from './connection.js';
import { archivedSubject, EVENTS_STREAM } from './resources.js';
import { batonCli } from './test-support/baton-cli.js';
import { connectTo, makeDevice, type TestDevice } from './test-support/devices.js';
import { startNatsServer, type NatsServerHandle } from './test-support/nats-server.js';

let server: NatsServerHandle;
let relay: Relay;
let a: TestDevice;
let cwd: string;
const TITLE = 'Cold storage of the marmalade-octopus plan';

beforeAll(async () => {
  server = await startNatsServer();
  relay = await connectTo(server);
  a = await makeDevice(server, 'laptop');
  cwd = await mkdtemp(join(tmpdir(), 'baton-archive-cwd-'));
});
afterAll(async () => {
  await relay?.close();
  await server?.stop();
  for (const dir of [a?.dataDir, cwd]) if (dir) await rm(dir, { recursive: true, force: true });
});

async function listIds(includeArchived = false): Promise<string[]> {
  const store = await openStore(a.dataDir);
  try {
    return (await store.list({ includeArchived })).map((r) => r.id);
  } finally {
    await store.close();
  }
}

describe('baton archive / unarchive', () => {
  let sessionId: string;

  it('archives and unarchives locally without a relay round trip', async () => {
    const saved = await batonCli(a.dataDir, ['handoff', '--dry-run', '--cwd', cwd, '--json', '--title', TITLE, '--messages', '-'], { input: '{"role":"user","content":"marmalade-octopus secret step"}\n{"role":"assistant","content":"ok"}' });
    sessionId = saved.json.sessionId as string;
    expect((await batonCli(a.dataDir, ['archive', sessionId, '--json'])).json).toMatchObject({ ok: true, relay: false });
    expect(await listIds()).not.toContain(sessionId);
    expect((await batonCli(a.dataDir, ['unarchive', sessionId, '--json'])).json).toMatchObject({ ok: true, state: 'unarchived' });
    expect(await listIds()).toContain(sessionId);
    const store = await openStore(a.dataDir);
    expect(await store.getSession(sessionId)).toMatchObject({ archived: false });
    await store.close();
  });

  it('--relay uploads a sealed copy, publishes the archived event, and brings the session back after it is gone locally', async () => {
    const archived = await batonCli(a.dataDir, ['archive', sessionId, '--relay', '--json']);
    expect(archived.code, archived.stdout + archived.stderr).toBe(0);
    expect(archived.json.event).toMatchObject({ event: 'archived', sessionId, deviceId: a.identity.deviceId });
    const stored = await relay.jsm.streams.getMessage(EVENTS_STREAM, { last_by_subj: archivedSubject(a.identity.deviceId) });
    expect(stored?.json<{ sessionId: string }>().sessionId).toBe(sessionId);
    expect(await listIds()).not.toContain(sessionId);
    expect(() => execFileSync('grep', ['-rl', '--binary-files=text', 'marmalade-octopus', server.storeDir])).toThrow(); // grep exits 1: no plaintext

    await rm(join(a.dataDir, 'archived', sessionId), { recursive: true, force: true });
    const back = await batonCli(a.dataDir, ['unarchive', sessionId, '--relay', '--json']);
    expect(back.code, back.stdout + back.stderr).toBe(0);
    expect(back.json).toMatchObject({ landed: true });
    const store = await openStore(a.dataDir);
    try {
      expect(await store.getSession(sessionId)).toMatchObject({ title: TITLE, archived: false, messageCount: 2 });
      expect((await store.readMessages(sessionId))[0]!.content).toBe('marmalade-octopus secret step');
    } finally {
      await store.close();
    }
  });

  it('reports a session with no cold copy as NOT_FOUND', async () => {
    const missing = await batonCli(a.dataDir, ['unarchive', 's-nothing-here', '--relay', '--json']);
    expect(missing.code).toBe(1);
    expect(missing.json).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });
});
