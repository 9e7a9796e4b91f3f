import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawPeer } from './test-support/raw-peer.js';
import { rawAuthenticated, startTestEndpoint, type TestEndpoint } from './test-support/fixture.js';

/**
 * fast-check against a real server over a real socket: arbitrary bytes before and after
 * authentication. The properties: the server never crashes, never calls the handler before a
 * valid proof, answers every complete line after auth with a typed answer (or closes on
 * FRAME_TOO_LARGE), and still serves a well-behaved client afterwards.
 */
const KNOWN_CODES = new Set(['BAD_FRAME', 'BAD_REQUEST', 'UPGRADE_REQUIRED', 'FRAME_TOO_LARGE']);
let test: TestEndpoint;

beforeAll(async () => {
  test = await startTestEndpoint({ limits: { maxFrameBytes: 2048, idleTimeoutMs: 2_000, handshakeTimeoutMs: 2_000 } });
});
afterAll(async () => {
  await test.dispose();
});

/** A well-formed request whose params carry a prototype key nested three levels down. */
const HOSTILE_REQUEST = '{"type":"request","id":"hostile","method":"ping","params":{"a":[{"b":{"__proto__":{"polluted":1}}}]}}\n';
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
function hasForbiddenKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasForbiddenKey);
  if (value && typeof value === 'object') return Object.keys(value).some((k) => FORBIDDEN.has(k) || hasForbiddenKey((value as Record<string, unknown>)[k]));
  return false;
}

const chunkArb = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
  fc.string({ maxLength: 300 }).map((s) => Buffer.from(s)),
  fc.jsonValue({ maxDepth: 50 }).map((v) => Buffer.from(`${JSON.stringify(v) ?? 'null'}\n`)),
  fc.constantFrom('\n', '{"__proto__":{"polluted":1}}\n', HOSTILE_REQUEST, `${'['.repeat(100)}\n`, '{"type":"request","id":"x","method":"ping"', 'x'.repeat(3000)).map((s) => Buffer.from(s)),
);


describe('real-socket fuzzing', () => {
  it('before authentication: arbitrary bytes never reach the handler and never get an application byte (1,000 runs)', async () => {
    const failedBefore = test.server.failedProofs;
    let connections = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(chunkArb, { minLength: 1, maxLength: 4 }), async (chunks) => {
        const peer = await RawPeer.connect(test.endpoint.address);
        connections += 1;
        const hello = await peer.nextLine();
        expect(hello).toMatch(/^\{"type":"hello"/);
        for (const chunk of chunks) peer.send(chunk);
        peer.send('\n'); // make sure at least one line completes
        await peer.closed;
        // Only the hello, or an UPGRADE_REQUIRED answer if the bytes happened to be a newer-major auth.
        const after = peer.receivedText.split('\n').slice(1).filter(Boolean);
        for (const line of after) expect(line).toContain('UPGRADE_REQUIRED');
        expect(test.handled).toHaveLength(0);
      }),
      { numRuns: 1_000 },
    );
    expect(test.server.failedProofs - failedBefore).toBeGreaterThan(connections * 0.9);
  });

  it('after authentication: every complete line gets a typed answer or the connection closes on FRAME_TOO_LARGE (1,000 runs)', async () => {
    let hostileSent = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(chunkArb, { minLength: 1, maxLength: 4 }), async (chunks) => {
        const peer = await rawAuthenticated(test.endpoint.address, test.token);
        const payload = Buffer.concat([...chunks, Buffer.from('\n')]);
        if (payload.includes(HOSTILE_REQUEST)) hostileSent += 1;
        peer.send(payload);
        // A sentinel request proves the server is still reading (unless it closed for size).
        peer.sendFrame({ type: 'request', id: 'sentinel', method: 'ping', params: null });
        for (;;) {
          const frame = await peer.nextFrame(3_000);
          if (frame === null) {
            expect(peer.receivedText).toContain('FRAME_TOO_LARGE');
            break;
          }
          expect(frame.type).toBe('answer');
          if (frame.id === 'sentinel') break;
          if (frame.ok === false) expect(KNOWN_CODES.has(String(frame.code))).toBe(true);
        }
        peer.destroy();
      }),
      { numRuns: 1_000 },
    );
    // A request carrying a prototype key is refused as BAD_FRAME: the handler never sees one.
    expect(hostileSent).toBeGreaterThan(0);
    expect(test.handled.filter((h) => hasForbiddenKey(h.params))).toEqual([]);
    const peer = await rawAuthenticated(test.endpoint.address, test.token);
    peer.send(HOSTILE_REQUEST);
    expect(await peer.nextFrame()).toMatchObject({ type: 'answer', ok: false, code: 'BAD_FRAME' });
    peer.destroy();
  });

  it('still serves a well-behaved client after all of it', async () => {
    const { connectEndpoint } = await import('./client.js');
    const client = await connectEndpoint({ endpoint: test.endpoint, token: test.token });
    expect(await client.request('ping', { after: 'fuzz' })).toEqual({ ok: true, echo: { after: 'fuzz' } });
    client.close();
  });
});
