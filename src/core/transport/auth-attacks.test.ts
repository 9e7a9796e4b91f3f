import { spawnSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clientProof } from './auth.js';
import { connectEndpoint } from './client.js';
import { resolveEndpoint } from './endpoint.js';
import { isTransportError } from './test-support/is-transport-error.js';
import { needsUser } from '../test-support/needs-user.js';
import { RawPeer } from './test-support/raw-peer.js';
import { startTestEndpoint, type TestEndpoint } from './test-support/fixture.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function endpointFor(): Promise<TestEndpoint> {
  const test = await startTestEndpoint();
  cleanups.push(() => test.dispose());
  return test;
}

/**
 * One hostile attempt at the raw protocol: connect, read the hello, send `makeAuth(nonce)`, then
 * (pipelined behind the auth, before any ack) a request. Returns how many bytes the server wrote
 * after its hello, and the nonce it offered.
 */
async function attempt(address: string, makeAuth: (nonce: string) => string): Promise<{ afterHello: number; nonce: string }> {
  const peer = await RawPeer.connect(address);
  const hello = await peer.nextLine();
  if (hello === null) throw new Error('no hello');
  const helloBytes = Buffer.byteLength(hello) + 1;
  const nonce = String((JSON.parse(hello) as { nonce: string }).nonce);
  peer.send(`${makeAuth(nonce)}\n{"type":"request","id":"sneak","method":"handoff.offer","params":{"x":1}}\n`);
  await peer.closed;
  return { afterHello: peer.bytesReceived - helloBytes, nonce };
}

describe('authentication under attack', () => {
  it('accepts none of 10,000 random, wrong-token and replayed proofs, and sends nothing after hello', async () => {
    const test = await endpointFor();
    const wrongToken = randomBytes(32);
    const ATTEMPTS = 10_000;
    const PARALLEL = 8;
    let previousNonce: string | null = null;
    let bytesAfterHello = 0;
    let done = 0;
    const kinds = { random: 0, wrongToken: 0, replayed: 0, garbage: 0 };

    const makeAuth = (i: number) => (nonce: string): string => {
      const kind = i % 4;
      let proof: string;
      if (kind === 0) {
        kinds.random += 1;
        proof = randomBytes(32).toString('hex');
      } else if (kind === 1) {
        kinds.wrongToken += 1;
        proof = clientProof(wrongToken, nonce);
      } else if (kind === 2 && previousNonce !== null) {
        // A VALID proof, but for an earlier connection's nonce: a replay.
        kinds.replayed += 1;
        proof = clientProof(test.token, previousNonce);
      } else {
        kinds.garbage += 1;
        proof = i % 8 === 3 ? 'zz'.repeat(32) : createHmac('sha256', test.token).update(nonce).digest('hex'); // HMAC over the base64 text, not the bytes
      }
      previousNonce = nonce;
      return JSON.stringify({ type: 'auth', version: '1.0', proof });
    };

    let next = 0;
    async function worker(): Promise<void> {
      while (next < ATTEMPTS) {
        const i = next;
        next += 1;
        const result = await attempt(test.endpoint.address, makeAuth(i));
        bytesAfterHello += result.afterHello;
        done += 1;
      }
    }
    await Promise.all(Array.from({ length: PARALLEL }, worker));

    expect(done).toBe(ATTEMPTS);
    expect(kinds.replayed).toBeGreaterThan(2_000);
    expect(bytesAfterHello).toBe(0);
    expect(test.handled).toHaveLength(0);
    expect(test.server.failedProofs).toBe(ATTEMPTS);

    // Control: the same machinery with the right proof is accepted, so the zeros above mean something.
    const peer = await RawPeer.connect(test.endpoint.address);
    const hello = (await peer.nextFrame()) as { nonce: string };
    peer.sendFrame({ type: 'auth', version: '1.0', proof: clientProof(test.token, hello.nonce) });
    expect(await peer.nextFrame()).toMatchObject({ type: 'authenticated' });
    peer.destroy();
  });

  it('refuses the same nonce twice on one connection (no second auth after a failure)', async () => {
    const test = await endpointFor();
    const peer = await RawPeer.connect(test.endpoint.address);
    const hello = (await peer.nextFrame()) as { nonce: string };
    peer.send(`${JSON.stringify({ type: 'auth', version: '1.0', proof: '0'.repeat(64) })}\n${JSON.stringify({ type: 'auth', version: '1.0', proof: clientProof(test.token, hello.nonce) })}\n`);
    await peer.closed;
    expect(peer.receivedText.trim().split('\n')).toHaveLength(1);
    expect(test.server.failedProofs).toBe(1);
  });

  it('gives every connection a fresh nonce', async () => {
    const test = await endpointFor();
    const nonces = new Set<string>();
    for (let i = 0; i < 50; i += 1) {
      const peer = await RawPeer.connect(test.endpoint.address);
      nonces.add(String((await peer.nextFrame())?.nonce));
      peer.destroy();
    }
    expect(nonces.size).toBe(50);
  });

  it('a client with the wrong token gets UNAUTHENTICATED, naming its token path', async () => {
    const test = await endpointFor();
    const error = await connectEndpoint({ endpoint: test.endpoint, token: randomBytes(32) }).catch((e: unknown) => e);
    expect(isTransportError(error, 'UNAUTHENTICATED')).toBe(true);
    expect((error as Error).message).toContain(test.endpoint.tokenPath);
    expect(test.server.failedProofs).toBe(1);
  });
});

describe('another local user', () => {
  // setpriv (util-linux) is on every Debian; where it is missing this test fails rather than skips.
  it('cannot connect to the socket (EACCES), though it can when the directory is opened up', async (ctx) => {
    needsUser(ctx, 'root', 'switching to uid 65534 with setpriv');
    expect(spawnSync('setpriv', ['--version']).status, 'setpriv (util-linux) is needed').toBe(0);
    // A world-traversable parent, so that only the endpoint's own 0700 directory stands in the way.
    const root = await mkdtemp(path.join(os.tmpdir(), 'baton-uid-'));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    await chmod(root, 0o755);
    const { startEndpointServer } = await import('./server.js');
    const endpoint = resolveEndpoint(root, {}, 'linux');
    const server = await startEndpointServer({ endpoint, token: randomBytes(32), handle: async () => ({ ok: true }) });
    cleanups.push(() => server.close());

    const connectAs65534 = async (): Promise<string> => {
      const code = `const s=require('net').connect(${JSON.stringify(endpoint.address)});s.on('connect',()=>{s.once('data',d=>{console.log('CONNECTED '+d.toString().slice(0,20));process.exit(0)})});s.on('error',e=>{console.log(e.code);process.exit(0)})`;
      const { spawn } = await import('node:child_process');
      const child = spawn('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      await new Promise((resolve) => child.on('close', resolve));
      return out.trim();
    };

    expect(await connectAs65534()).toBe('EACCES');

    // Control: open the directory and the socket, and the same child gets the hello.
    await chmod(endpoint.dir, 0o755);
    await chmod(endpoint.address, 0o777);
    expect(await connectAs65534()).toMatch(/^CONNECTED \{"type":"hello"/);
    await chmod(endpoint.dir, 0o700);
  });
});

describe('a fake server squatting the address (no token)', () => {
  async function fakeServer(behaviour: 'silent' | 'ack' | 'ack-bogus-proof'): Promise<{ address: string; peers: RawPeer[]; endpoint: ReturnType<typeof resolveEndpoint> }> {
    const root = await mkdtemp(path.join(os.tmpdir(), 'baton-fake-'));
    const endpoint = resolveEndpoint(root, {}, 'linux');
    const { ensureEndpointDir } = await import('./endpoint.js');
    await ensureEndpointDir(endpoint.dir);
    const peers: RawPeer[] = [];
    const server = net.createServer((socket) => {
      const peer = RawPeer.wrap(socket);
      peers.push(peer);
      peer.sendFrame({ type: 'hello', versions: ['1.0'], nonce: randomBytes(32).toString('base64') });
      void peer.nextLine().then((line) => {
        if (line === null) return;
        if (behaviour === 'ack') peer.sendFrame({ type: 'authenticated', version: '1.0' });
        if (behaviour === 'ack-bogus-proof') peer.sendFrame({ type: 'authenticated', version: '1.0', serverProof: randomBytes(32).toString('hex') });
      });
    });
    await new Promise<void>((resolve) => server.listen(endpoint.address, resolve));
    cleanups.push(async () => {
      for (const peer of peers) peer.destroy();
      await new Promise((resolve) => server.close(resolve));
      await rm(root, { recursive: true, force: true });
    });
    return { address: endpoint.address, peers, endpoint };
  }

  /** What a CLI does: connect, then offer a manifest. */
  function offer(endpoint: ReturnType<typeof resolveEndpoint>, authenticateServer: boolean, timeoutMs = 500): Promise<unknown> {
    return connectEndpoint({ endpoint, token: randomBytes(32), authenticateServer, timeoutMs })
      .then((client) => client.request('handoff.offer', { manifest: 'SECRET-MANIFEST' }, { timeoutMs: 300 }))
      .catch((e: unknown) => e);
  }

  function onlyAuthFrame(peer: RawPeer, withClientNonce: boolean): void {
    const lines = peer.receivedText.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const auth = JSON.parse(lines[0] as string) as Record<string, unknown>;
    expect(auth.type).toBe('auth');
    expect(typeof auth.clientNonce === 'string').toBe(withClientNonce);
    expect(peer.receivedText).not.toContain('SECRET-MANIFEST');
  }

  it('with server authentication: an ack without a valid server proof → UNAUTHENTICATED, no manifest byte', async () => {
    for (const behaviour of ['ack', 'ack-bogus-proof'] as const) {
      const fake = await fakeServer(behaviour);
      const error = await offer(fake.endpoint, true);
      expect(isTransportError(error, 'UNAUTHENTICATED'), behaviour).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(fake.peers).toHaveLength(1);
      onlyAuthFrame(fake.peers[0] as RawPeer, true);
    }
  });

  it('with or without server authentication: a fake that never acks gets only the auth frame, then TIMEOUT', async () => {
    for (const authenticateServer of [true, false]) {
      const fake = await fakeServer('silent');
      const error = await offer(fake.endpoint, authenticateServer);
      expect(isTransportError(error, 'TIMEOUT')).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 20));
      onlyAuthFrame(fake.peers[0] as RawPeer, authenticateServer);
    }
  });

  it('documents the limit: without server authentication a squatter that acks would get the request', async () => {
    // This is why authenticateServer is on by default (pipe names can be squatted on Windows; on
    // Unix the socket also sits in a 0700 directory no other user can create anything in).
    const fake = await fakeServer('ack');
    await offer(fake.endpoint, false);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.peers[0]?.receivedText).toContain('SECRET-MANIFEST');
  });

  it('the default client (what the CLI uses) gives an acking squatter no manifest byte', async () => {
    const fake = await fakeServer('ack');
    const error = await connectEndpoint({ endpoint: fake.endpoint, token: randomBytes(32), timeoutMs: 500 })
      .then((client) => client.request('handoff.offer', { manifest: 'SECRET-MANIFEST' }, { timeoutMs: 300 }))
      .catch((e: unknown) => e);
    expect(isTransportError(error, 'UNAUTHENTICATED')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    onlyAuthFrame(fake.peers[0] as RawPeer, true);
  });

  it('refuses a server that only speaks a newer major version', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'baton-v2-'));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const endpoint = resolveEndpoint(root, {}, 'linux');
    const { ensureEndpointDir } = await import('./endpoint.js');
    await ensureEndpointDir(endpoint.dir);
    const received: string[] = [];
    const server = net.createServer((socket) => {
      socket.on('data', (d: Buffer) => received.push(d.toString()));
      socket.on('error', () => undefined);
      socket.write(`${JSON.stringify({ type: 'hello', versions: ['2.0'], nonce: randomBytes(32).toString('base64') })}\n`);
    });
    await new Promise<void>((resolve) => server.listen(endpoint.address, resolve));
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
    const error = await connectEndpoint({ endpoint, token: randomBytes(32) }).catch((e: unknown) => e);
    expect(isTransportError(error, 'UPGRADE_REQUIRED')).toBe(true);
    expect((error as Error).message).toMatch(/2\.0.*1\.0/);
    expect(received).toEqual([]); // not even a proof for a server we cannot talk to
  });
});
