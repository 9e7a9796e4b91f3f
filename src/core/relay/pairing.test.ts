import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../crypto/identity.js';
import { readPeers } from '../crypto/peers.js';
import { sealWithKey } from '../crypto/seal.js';
import type { Relay } from './connection.js';
import { joinPairing, PairingError, startPairing } from './pairing.js';
import { PAIRING_BUCKET, PAIRING_TTL_MS } from './resources.js';
import { startNatsServer, type NatsServerHandle } from './test-support/nats-server.js';
import { connectTo, makeDevice, type TestDevice } from './test-support/devices.js';

let server: NatsServerHandle;
let relay: Relay;
const devices: TestDevice[] = [];

beforeAll(async () => {
  server = await startNatsServer();
  relay = await connectTo(server);
});
afterAll(async () => {
  await relay?.close();
  await server?.stop();
  await Promise.all(devices.map((d) => rm(d.dataDir, { recursive: true, force: true })));
});

async function device(name: string): Promise<TestDevice> {
  const d = await makeDevice(server, name);
  devices.push(d);
  return d;
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(PairingError);
  return (error as PairingError).code;
}

describe('pairing over a real nats-server', () => {
  it('exchanges public keys: each side holds the other with the same fingerprint', async () => {
    const [a, b] = [await device('laptop'), await device('devbox')];
    const started = await startPairing(relay, a.dataDir, a.identity);
    expect(started.code.replace(/-/g, '')).toMatch(/^[A-Z2-7]{32}$/); // 160 bits
    expect(started.link).toBe(`baton://pair?code=${started.code.replace(/-/g, '')}`);
    const waited = started.wait(10_000);
    const joined = await joinPairing(relay, b.dataDir, b.identity, started.code.toLowerCase());
    const paired = await waited;
    expect(joined).toMatchObject({ deviceId: a.identity.deviceId, name: 'laptop', fingerprint: fingerprint(a.identity) });
    expect(paired).toMatchObject({ deviceId: b.identity.deviceId, name: 'devbox', fingerprint: fingerprint(b.identity) });
    expect((await readPeers(a.dataDir)).map((p) => p.signingKey)).toEqual([b.identity.signingKey]);
    expect((await readPeers(b.dataDir)).map((p) => p.encryptionKey)).toEqual([a.identity.encryptionKey]);
    // Single use: the pairing left nothing on the relay, and a third device cannot reuse the code.
    const c = await device('intruder');
    expect(await refusal(joinPairing(relay, c.dataDir, c.identity, started.code))).toBe('CODE_UNKNOWN');
    expect(await readPeers(c.dataDir)).toEqual([]);
  });

  it('refuses a second join while the first is not yet collected', async () => {
    const [a, b, c] = [await device('a'), await device('b'), await device('c')];
    const started = await startPairing(relay, a.dataDir, a.identity);
    await joinPairing(relay, b.dataDir, b.identity, started.code);
    expect(await refusal(joinPairing(relay, c.dataDir, c.identity, started.code))).toBe('CODE_USED');
    expect((await started.wait(5_000)).deviceId).toBe(b.identity.deviceId);
  });

  it('refuses keys the relay substituted (not sealed under the code)', async () => {
    const [a, b] = [await device('a2'), await device('b2')];
    const started = await startPairing(relay, a.dataDir, a.identity);
    const kv = await relay.kv(PAIRING_BUCKET);
    const keys: string[] = [];
    for await (const key of await kv.keys()) keys.push(key);
    const offerKey = keys.find((k) => k.endsWith('.offer'))!;
    // The relay operator replaces the offer with one sealed under a key of its own.
    await kv.put(offerKey, sealWithKey(randomBytes(32), `offer:${offerKey.split('.')[0]}`, Buffer.from('{"device":{}}')));
    expect(await refusal(joinPairing(relay, b.dataDir, b.identity, started.code))).toBe('TAMPERED');
    expect(await readPeers(b.dataDir)).toEqual([]);
    await started.cancel();
  });

  it('refuses malformed, unknown and expired codes', async () => {
    const [a, b] = [await device('a3'), await device('b3')];
    expect(await refusal(joinPairing(relay, b.dataDir, b.identity, 'not-a-code'))).toBe('BAD_CODE');
    expect(await refusal(joinPairing(relay, b.dataDir, b.identity, 'A'.repeat(32)))).toBe('CODE_UNKNOWN');
    const old = await startPairing(relay, a.dataDir, a.identity, Date.now() - PAIRING_TTL_MS - 1_000);
    expect(await refusal(joinPairing(relay, b.dataDir, b.identity, old.code))).toBe('CODE_EXPIRED');
    const own = await startPairing(relay, a.dataDir, a.identity);
    expect(await refusal(joinPairing(relay, a.dataDir, a.identity, own.code))).toBe('SELF');
    await Promise.all([old.cancel(), own.cancel()]);
  });
});
