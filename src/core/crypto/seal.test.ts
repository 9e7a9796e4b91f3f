import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint, identityPath, loadOrCreateIdentity, readIdentity, type DeviceIdentity } from './identity.js';
import { open, openBinary, openWithKey, parseEnvelope, seal, sealBinary, sealWithKey, type SealedEnvelope } from './seal.js';

let root: string;
let alice: DeviceIdentity;
let bob: DeviceIdentity;
let mallory: DeviceIdentity;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-crypto-'));
  alice = await loadOrCreateIdentity(join(root, 'a'), 'alice');
  bob = await loadOrCreateIdentity(join(root, 'b'), 'bob');
  mallory = await loadOrCreateIdentity(join(root, 'm'), 'mallory');
});
afterAll(() => rm(root, { recursive: true, force: true }));

const paired = (...devices: DeviceIdentity[]) => (id: string) => devices.find((d) => d.deviceId === id)?.signingKey;
const text = Buffer.from('the secret session title and /home/me/project');
function sealForBob(plaintext = text): SealedEnvelope {
  return seal({ sender: alice, recipient: bob, kind: 'handoff', context: 'h-1', plaintext });
}

describe('device identity', () => {
  it('is made once, kept 0600, and read back with the same keys', async () => {
    const again = await loadOrCreateIdentity(join(root, 'a'), 'other-name');
    expect(again.deviceId).toBe(alice.deviceId);
    expect(again.signingKey).toBe(alice.signingKey);
    expect(again.name).toBe('alice');
    expect((await stat(identityPath(join(root, 'a')))).mode & 0o777).toBe(0o600);
    expect(await readIdentity(join(root, 'nobody'))).toBeUndefined();
    expect(alice.deviceId).toMatch(/^d[0-9a-f]{20}$/);
  });
  it('is the same for processes that make it at once', async () => {
    const dir = join(root, 'race');
    const made = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateIdentity(dir, 'racer')));
    expect(new Set(made.map((m) => m.signingKey)).size).toBe(1);
    expect((await readIdentity(dir))!.deviceId).toBe(made[0]!.deviceId);
  });
  it('has a fingerprint that differs between devices', () => {
    expect(fingerprint(alice)).toMatch(/^([0-9a-f]{4} ){7}[0-9a-f]{4}$/);
    expect(fingerprint(alice)).not.toBe(fingerprint(bob));
  });
});

describe('seal and open', () => {
  it('round-trips for the paired recipient and leaves no plaintext in the envelope', () => {
    const envelope = sealForBob();
    expect(JSON.stringify(envelope)).not.toContain('secret');
    const opened = open(envelope, { recipient: bob, kind: 'handoff', context: 'h-1', signingKeyOf: paired(alice) });
    expect(opened).toMatchObject({ ok: true, from: alice.deviceId });
    expect(opened.ok && opened.plaintext.equals(text)).toBe(true);
  });
  it('uses a fresh ephemeral key each time', () => {
    expect(sealForBob().epk).not.toBe(sealForBob().epk);
  });
  it('refuses an unsigned envelope', () => {
    const { sig: _sig, ...unsigned } = sealForBob();
    expect(open(unsigned as SealedEnvelope, { recipient: bob, kind: 'handoff', context: 'h-1', signingKeyOf: paired(alice) })).toMatchObject({ ok: false, code: 'UNSIGNED' });
  });
  it('refuses a sender that is not paired', () => {
    expect(open(sealForBob(), { recipient: bob, kind: 'handoff', context: 'h-1', signingKeyOf: paired(mallory) })).toMatchObject({ ok: false, code: 'UNKNOWN_SENDER' });
  });
  it('refuses an envelope signed by someone else under a paired id', () => {
    const forged = seal({ sender: { ...mallory, deviceId: alice.deviceId }, recipient: bob, kind: 'handoff', context: 'h-1', plaintext: text });
    expect(open(forged, { recipient: bob, kind: 'handoff', context: 'h-1', signingKeyOf: paired(alice) })).toMatchObject({ ok: false, code: 'BAD_SIGNATURE' });
  });
  it('refuses the wrong recipient key', () => {
    const envelope = sealForBob();
    const wrong = { ...mallory, deviceId: bob.deviceId };
    expect(open(envelope, { recipient: wrong, kind: 'handoff', context: 'h-1', signingKeyOf: paired(alice) })).toMatchObject({ ok: false, code: 'WRONG_KEY' });
    expect(open(envelope, { recipient: mallory, kind: 'handoff', context: 'h-1', signingKeyOf: paired(alice) })).toMatchObject({ ok: false, code: 'NOT_FOR_US' });
  });
  it('refuses every single-character tampering of every field', () => {
    const envelope = sealForBob();
    let refused = 0;
    let tried = 0;
    for (const field of ['kind', 'from', 'to', 'epk', 'iv', 'ct', 'sig'] as const) {
      const value = envelope[field] as string;
      for (let i = 0; i < value.length; i++) {
        const flipped = value[i] === 'A' ? 'B' : 'A';
        const tampered = { ...envelope, [field]: value.slice(0, i) + flipped + value.slice(i + 1) };
        tried++;
        if (!open(tampered, { recipient: bob, kind: 'handoff', context: 'h-1', signingKeyOf: paired(alice) }).ok) refused++;
      }
    }
    expect(tried).toBeGreaterThan(200);
    expect(refused).toBe(tried);
  });
  it('binds the context: a sealed part cannot be replayed under another handoff id or kind', () => {
    const envelope = sealForBob();
    expect(open(envelope, { recipient: bob, kind: 'handoff', context: 'h-2', signingKeyOf: paired(alice) })).toMatchObject({ ok: false, code: 'BAD_SIGNATURE' });
    expect(open(envelope, { recipient: bob, kind: 'receipt', context: 'h-1', signingKeyOf: paired(alice) })).toMatchObject({ ok: false, code: 'MALFORMED' });
  });
  it('parses only well-formed envelopes', () => {
    expect(parseEnvelope('not json')).toMatchObject({ ok: false, code: 'MALFORMED' });
    expect(parseEnvelope('{"v":2}')).toMatchObject({ ok: false, code: 'MALFORMED' });
    expect(parseEnvelope(JSON.stringify(sealForBob()))).toMatchObject({ v: 1, kind: 'handoff' });
  });
});

describe('symmetric sealing under a pairing key', () => {
  it('round-trips and refuses another key or associated data', () => {
    const key = Buffer.alloc(32, 7);
    const sealed = sealWithKey(key, 'pair:abc', Buffer.from('hello'));
    expect(openWithKey(key, 'pair:abc', sealed)?.toString()).toBe('hello');
    expect(openWithKey(Buffer.alloc(32, 8), 'pair:abc', sealed)).toBeUndefined();
    expect(openWithKey(key, 'pair:abd', sealed)).toBeUndefined();
    expect(openWithKey(key, 'pair:abc', 'AAAA')).toBeUndefined();
  });
});

describe('binary sealing (large parts)', () => {
  const big = Buffer.alloc(300_000, 'secret bytes ');
  const sealed = () => sealBinary({ sender: alice, recipient: bob, kind: 'handoff-blob', context: 'h-9', plaintext: big });
  const opts = () => ({ recipient: bob, kind: 'handoff-blob', context: 'h-9', signingKeyOf: paired(alice) });
  it('round-trips without plaintext in the sealed bytes', () => {
    const bytes = sealed();
    expect(bytes.includes('secret bytes')).toBe(false);
    const opened = openBinary(bytes, opts());
    expect(opened.ok && opened.plaintext.equals(big)).toBe(true);
  });
  it('refuses a flipped byte anywhere (header, ciphertext, tag), another context, key or sender', () => {
    const bytes = sealed();
    let refused = 0;
    const positions = [0, 5, 9, 20, 60, 120, 200, bytes.length - 1, bytes.length - 10, bytes.length - 20, ...Array.from({ length: 90 }, (_, i) => 300 + i * 3000)];
    for (const at of positions) {
      const copy = Buffer.from(bytes);
      copy[at] = copy[at]! ^ 0x01;
      if (!openBinary(copy, opts()).ok) refused++;
    }
    expect(refused).toBe(positions.length);
    expect(openBinary(bytes, { ...opts(), context: 'h-10' })).toMatchObject({ ok: false, code: 'BAD_SIGNATURE' });
    expect(openBinary(bytes, { ...opts(), recipient: { ...mallory, deviceId: bob.deviceId } })).toMatchObject({ ok: false, code: 'WRONG_KEY' });
    expect(openBinary(bytes, { ...opts(), signingKeyOf: paired(mallory) })).toMatchObject({ ok: false, code: 'UNKNOWN_SENDER' });
    expect(openBinary(bytes.subarray(0, 10), opts())).toMatchObject({ ok: false, code: 'MALFORMED' });
  });
});
