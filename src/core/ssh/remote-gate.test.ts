import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BROWSER_HOST_CAPABILITIES } from '../host/capabilities.js';
import { startHostServices, type HostServices } from '../host/host-services.js';
import { landAndReadBack, offerSession } from '../handoff/send.js';
import { encodeBundle, readSessionBundle } from '../relay/session-bundle.js';
import { openStore } from '../store/index.js';
import type { SessionStore } from '../store/types.js';
import { connectEndpoint } from '../transport/client.js';
import type { EndpointClient } from '../transport/types.js';
import { REMOTE_METHODS } from './remote-gate.js';
import { UPLOAD_CHUNK_BYTES, uploadSession } from './session-upload.js';
import { sshOriginOf } from '../../shared/ssh-origin.js';

/**
 * The desktop's side of `baton ssh` over a real socket: a credential got and held by a local
 * client, a "remote" client authenticated with it, and a separate store standing in for the
 * remote box. What the remote may call, and what it may land, is checked here.
 */
let laptopDir: string;
let remoteDir: string;
let services: HostServices;
let remoteStore: SessionStore;
let local: EndpointClient;
const clients: EndpointClient[] = [];

beforeEach(async () => {
  laptopDir = await mkdtemp(path.join(os.tmpdir(), 'baton-gate-laptop-'));
  remoteDir = await mkdtemp(path.join(os.tmpdir(), 'baton-gate-remote-'));
  delete process.env.XDG_RUNTIME_DIR;
  services = await startHostServices({ dataDir: laptopDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
  remoteStore = await openStore(remoteDir);
  local = await connectEndpoint({ endpoint: services.endpoint, token: services.token });
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  local.close();
  await remoteStore.close();
  await services.close();
  await rm(laptopDir, { recursive: true, force: true });
  await rm(remoteDir, { recursive: true, force: true });
});

async function remoteClient(host = 'me@devbox'): Promise<{ client: EndpointClient; token: Buffer; credentialId: string }> {
  const opened = await local.request('ssh.credential.open', { host });
  expect(opened).toMatchObject({ ok: true });
  const token = Buffer.from(opened.token as string, 'base64');
  void local.request('ssh.credential.hold', { credentialId: opened.credentialId }, { timeoutMs: 600_000 }).catch(() => undefined);
  const client = await connectEndpoint({ endpoint: services.endpoint, token });
  clients.push(client);
  return { client, token, credentialId: opened.credentialId as string };
}

async function remoteSession(title = 'On the remote'): Promise<string> {
  const landed = await landAndReadBack(remoteStore, { cwd: remoteDir, title, messages: [{ role: 'user', content: 'hello from the remote' }] });
  return landed.session.id;
}

describe('the remote gate', () => {
  it('a remote box reaches only the methods it needs', async () => {
    const { client } = await remoteClient();
    for (const method of ['session.open', 'ssh.credential.open', 'ssh.credential.hold', 'task.list', 'candidates.list', 'nothing.here']) {
      expect(await client.request(method, {}), method).toMatchObject({ ok: false, code: 'ACCESS_DENIED' });
    }
    expect(await client.request('ping', {})).toMatchObject({ ok: true, pong: true });
    expect([...REMOTE_METHODS].sort()).toEqual(['approval.request', 'handoff.offer', 'ping', 'session.upload', 'task.complete', 'task.get', 'task.heartbeat', 'task.register', 'task.result']);
  });

  it('lands a remote session through the upload, then accepts its offer; a second offer is a duplicate', async () => {
    const { client } = await remoteClient('me@devbox');
    const sessionId = await remoteSession();
    const offerVia = (c: EndpointClient) =>
      offerSession(sessionId, { store: remoteStore, endpoint: services.endpoint, token: Buffer.alloc(32), timeoutMs: 5_000, launch: false, dryRun: true }).then(async (dry) => {
        const manifest = (dry.answer as { manifest: unknown }).manifest;
        return c.request('handoff.offer', { manifest });
      });
    expect(await offerVia(client)).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(await uploadSession(client, remoteStore, sessionId, 'up-1')).toMatchObject({ ok: true, landed: 'landed', sessionId });
    const landed = await services.store.getSession(sessionId);
    expect(sshOriginOf(landed)?.host).toBe('me@devbox');
    expect(await offerVia(client)).toMatchObject({ ok: true, status: 'accepted' });
    expect(await offerVia(client)).toMatchObject({ ok: true, status: 'duplicate' });
    expect(await uploadSession(client, remoteStore, sessionId, 'up-2')).toMatchObject({ ok: true, landed: 'present' });
    // The session grew on the remote: it is never silently replaced, and says why.
    const doc = await remoteStore.getSession(sessionId);
    await remoteStore.append(sessionId, doc.holder.epoch, [{ role: 'assistant', content: 'more work on the remote' }]);
    const grown = await uploadSession(client, remoteStore, sessionId, 'up-3');
    expect(grown).toMatchObject({ ok: false, code: 'CONFLICT' });
    expect(String(grown.message)).toContain('cannot merge');
    expect((await services.store.readMessages(sessionId)).map((m) => m.content)).toEqual(['hello from the remote']);
  });

  it("a remote box cannot take a laptop session or another host's session", async () => {
    const laptopSession = await landAndReadBack(services.store, { cwd: laptopDir, title: 'Local', messages: [{ role: 'user', content: 'mine' }] });
    const { client: devbox } = await remoteClient('devbox');
    const { client: other } = await remoteClient('otherbox');
    const dry = await offerSession(laptopSession.session.id, { store: services.store, endpoint: services.endpoint, token: services.token, timeoutMs: 5_000, launch: false, dryRun: true });
    const manifest = (dry.answer as { manifest: unknown }).manifest;
    expect(await devbox.request('handoff.offer', { manifest })).toMatchObject({ ok: false, code: 'ACCESS_DENIED' });
    // A bundle claiming the laptop session's id is refused too: nothing is overwritten.
    const bundle = encodeBundle({ ...(await readSessionBundle(services.store, laptopSession.session.id)) });
    const sha256 = createHash('sha256').update(bundle).digest('hex');
    expect(await devbox.request('session.upload', { uploadId: 'u1', sessionId: laptopSession.session.id, index: 0, count: 1, sha256, data: bundle.toString('base64') })).toMatchObject({ ok: false, code: 'ACCESS_DENIED' });
    // A session that came from devbox cannot be offered by otherbox.
    const sessionId = await remoteSession();
    await uploadSession(devbox, remoteStore, sessionId, 'u2');
    const remoteDry = await offerSession(sessionId, { store: remoteStore, endpoint: services.endpoint, token: Buffer.alloc(32), timeoutMs: 5_000, launch: false, dryRun: true });
    expect(await other.request('handoff.offer', { manifest: (remoteDry.answer as { manifest: unknown }).manifest })).toMatchObject({ ok: false, code: 'ACCESS_DENIED' });
  });

  it('a local process cannot upload, nor claim an approval was resolved remotely', async () => {
    const sessionId = await remoteSession();
    expect(await uploadSession(local, remoteStore, sessionId, 'u1')).toMatchObject({ ok: false, code: 'ACCESS_DENIED' });
    // A claimed remote context (an unresolvable path that would look "remote") is dropped: judged as a local request.
    const asked = local.request('approval.request', {
      requestId: 'claim-1',
      sessionId: 's-local',
      tool: 'Write',
      input: { file_path: path.join(laptopDir, 'x.txt') },
      cwd: laptopDir,
      remote: { host: 'forged', workspaceRoot: '/', home: '/', paths: [] },
    });
    await expect.poll(() => services.approvals.listPending().length).toBe(1);
    const [pending] = services.approvals.listPending();
    expect(pending!.request.remote).toBeUndefined();
    expect(pending!.request.workspaceSource).not.toBe('remote');
    await services.approvals.decide('claim-1', { decision: 'deny' });
    expect(await asked).toMatchObject({ ok: true, decision: 'deny' });
  });

  it('a remote approval without its resolved paths is refused (the remote CLI then asks in its terminal)', async () => {
    const { client } = await remoteClient();
    const answer = await client.request('approval.request', { requestId: 'r1', sessionId: 's1', tool: 'Write', input: { file_path: '/x' }, cwd: '/home/me' });
    expect(answer).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
  });

  it('closing the holding connection revokes the credential', async () => {
    const { token } = await remoteClient();
    local.close();
    await expect(
      (async () => {
        for (let i = 0; i < 50; i++) {
          const c = await connectEndpoint({ endpoint: services.endpoint, token });
          c.close();
          await new Promise((r) => setTimeout(r, 50));
        }
      })(),
    ).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    local = await connectEndpoint({ endpoint: services.endpoint, token: services.token }); // afterEach closes it
  });
});

describe('session.upload against damaged and hostile chunks (corpus)', () => {
  it('lands nothing for any corrupted, truncated, reordered or mislabelled upload, and never fails without a code', async () => {
    const { client } = await remoteClient();
    const sessionId = await remoteSession();
    const bundle = encodeBundle(await readSessionBundle(remoteStore, sessionId));
    const sha256 = createHash('sha256').update(bundle).digest('hex');
    const send = (uploadId: string, params: Record<string, unknown>) => client.request('session.upload', { uploadId, sessionId, index: 0, count: 1, sha256, data: bundle.toString('base64'), ...params });
    const cases: Array<[string, Record<string, unknown>]> = [];
    // Every single-byte flip in the first 200 bytes and the last 100 (header, session.json, messages).
    for (let i = 0; i < Math.min(200, bundle.length); i++) {
      const bad = Buffer.from(bundle);
      bad[i] = bad[i]! ^ 0x41;
      cases.push([`flip ${i}`, { data: bad.toString('base64') }]);
    }
    for (let i = Math.max(0, bundle.length - 100); i < bundle.length; i++) {
      const bad = Buffer.from(bundle);
      bad[i] = bad[i]! ^ 0x01;
      cases.push([`flip tail ${i}`, { data: bad.toString('base64') }]);
    }
    for (const cut of [0, 1, 3, 4, 10, bundle.length - 1]) {
      const bad = bundle.subarray(0, cut);
      cases.push([`truncated ${cut}`, { data: bad.toString('base64'), sha256: createHash('sha256').update(bad).digest('hex') }]);
    }
    cases.push(['index past count', { index: 1 }], ['count 0', { count: 0 }], ['negative index', { index: -1 }], ['huge count', { count: 1e9 }], ['not base64', { data: '!!!' }], ['bad sha', { sha256: 'x' }], ['bad id', { uploadId: '../x' }], ['other session id', { sessionId: 'someone-else' }], ['oversized chunk', { data: Buffer.alloc(UPLOAD_CHUNK_BYTES + 3).toString('base64') }]);
    let n = 0;
    for (const [what, params] of cases) {
      const answer = await send(`bad-${n++}`, params);
      expect(answer.ok, what).toBe(false);
      expect(typeof answer.code, what).toBe('string');
    }
    expect(cases.length).toBeGreaterThan(300);
    await expect(services.store.getSession(sessionId)).rejects.toBeTruthy();

    // Flipped and re-hashed (as the remote itself could send): the transfer hash passes, so the
    // bundle's own checks decide. At most one lands (it is the remote's own session: the receiver
    // verifies it against the manifest on offer); after that, other messages are a CONFLICT and
    // never silently replace what landed.
    let landedAltered = 0;
    for (let i = 0; i < 120; i++) {
      const bad = Buffer.from(bundle);
      bad[(i * 7919) % bundle.length] = bad[(i * 7919) % bundle.length]! ^ 0xff;
      const answer = await send(`rehashed-${i}`, { data: bad.toString('base64'), sha256: createHash('sha256').update(bad).digest('hex') });
      if (answer.ok) {
        expect(['landed', 'present'], `rehashed ${i}`).toContain(answer.landed);
        if (answer.landed === 'landed') landedAltered++;
      } else expect(typeof answer.code, `rehashed ${i}`).toBe('string');
    }
    expect(landedAltered).toBeLessThanOrEqual(1);
    // A chunk out of order drops the upload: it must start again at 0.
    const big = await landAndReadBack(remoteStore, { cwd: remoteDir, title: 'big', messages: Array.from({ length: 40 }, (_, i) => ({ role: 'user' as const, content: `${i} ${'x'.repeat(20_000)}` })) });
    const bigBytes = encodeBundle(await readSessionBundle(remoteStore, big.session.id));
    const bigSha = createHash('sha256').update(bigBytes).digest('hex');
    const count = Math.ceil(bigBytes.length / UPLOAD_CHUNK_BYTES);
    expect(count).toBeGreaterThan(2);
    const chunk = (i: number) => bigBytes.subarray(i * UPLOAD_CHUNK_BYTES, (i + 1) * UPLOAD_CHUNK_BYTES).toString('base64');
    expect(await client.request('session.upload', { uploadId: 'o1', sessionId: big.session.id, index: 0, count, sha256: bigSha, data: chunk(0) })).toMatchObject({ ok: true, received: 1 });
    expect(await client.request('session.upload', { uploadId: 'o1', sessionId: big.session.id, index: 2, count, sha256: bigSha, data: chunk(2) })).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    expect(await client.request('session.upload', { uploadId: 'o1', sessionId: big.session.id, index: 1, count, sha256: bigSha, data: chunk(1) })).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    // The whole, in order, lands.
    expect(await uploadSession(client, remoteStore, big.session.id, 'o2')).toMatchObject({ ok: true, landed: 'landed' });
    expect((await services.store.readMessages(big.session.id)).length).toBe(40);
  }, 120_000);
});

describe('tasks from a remote box', () => {
  const reg = (id: string, extra: Record<string, unknown> = {}) => ({ id, kind: 'build', command: 'make', recoverable: false, leaseTtlMs: 60_000, ...extra });

  it('drop the remote pid (it names no process here), and stay that host\'s alone', async () => {
    const { client: devbox } = await remoteClient('devbox');
    const { client: other } = await remoteClient('otherbox');
    // pid 1 exists on this machine: a remote pid must never be checked or signalled here.
    expect(await devbox.request('task.register', reg('train', { pid: 1 }))).toMatchObject({ ok: true, epoch: 1 });
    const [view] = await services.tasks.list();
    expect(view!.record).toMatchObject({ id: 'train', pid: null, pidStartTime: null });
    expect(await other.request('task.heartbeat', { id: 'train', epoch: 1 })).toMatchObject({ ok: false, code: 'ACCESS_DENIED' });
    expect(await other.request('task.register', reg('train'))).toMatchObject({ ok: false, code: 'ACCESS_DENIED' });
    expect(await devbox.request('task.heartbeat', { id: 'train', epoch: 1 })).toMatchObject({ ok: true });
    expect(await devbox.request('task.get', { id: 'train' })).toMatchObject({ ok: true, task: { record: { id: 'train' } } });
  });

  it('cannot touch a task of the laptop', async () => {
    expect(await local.request('task.register', reg('dev-server'))).toMatchObject({ ok: true });
    const { client } = await remoteClient('devbox');
    expect(await client.request('task.register', reg('dev-server'))).toMatchObject({ ok: false, code: 'ACCESS_DENIED' });
    expect(await client.request('task.heartbeat', { id: 'dev-server', epoch: 1 })).toMatchObject({ ok: false, code: 'ACCESS_DENIED' });
    expect(await client.request('task.complete', { id: 'dev-server', epoch: 1, status: 'completed', exitCode: 0 })).toMatchObject({ ok: false, code: 'ACCESS_DENIED' });
    expect(await client.request('task.get', { id: 'dev-server' })).toMatchObject({ ok: false, code: 'ACCESS_DENIED' });
    expect(await client.request('task.list', {})).toMatchObject({ ok: false, code: 'ACCESS_DENIED' });
  });
});
