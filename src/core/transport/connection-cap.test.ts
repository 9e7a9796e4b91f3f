import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectEndpoint } from './client.js';
import { isTransportError } from './test-support/is-transport-error.js';
import { DEFAULT_LIMITS, MAX_ENDPOINT_CONNECTIONS } from './server.js';
import { startTestEndpoint, type TestEndpoint } from './test-support/fixture.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function endpointWithCap(maxConnections: number): Promise<TestEndpoint> {
  const test = await startTestEndpoint({ limits: { maxConnections } });
  cleanups.push(() => test.dispose());
  return test;
}

/** A raw socket that connects and waits for the hello (or the refusal), holding a slot. */
function holdSlot(address: string): Promise<{ socket: net.Socket; first: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(address);
    socket.once('error', reject);
    socket.once('data', (chunk: Buffer) => resolve({ socket, first: chunk.toString() }));
  });
}

describe('endpoint server: connection cap', () => {
  it('has a named default cap', () => {
    expect(DEFAULT_LIMITS.maxConnections).toBe(MAX_ENDPOINT_CONNECTIONS);
    expect(MAX_ENDPOINT_CONNECTIONS).toBeGreaterThanOrEqual(16);
  });

  it('answers one connection past the cap with BUSY and a reason, then serves again once a slot frees', async () => {
    const test = await endpointWithCap(3);
    const held = [];
    for (let i = 0; i < 3; i++) held.push(await holdSlot(test.endpoint.address));
    for (const { socket, first } of held) {
      cleanups.push(() => void socket.destroy());
      expect(JSON.parse(first).type).toBe('hello');
    }

    const refused = await holdSlot(test.endpoint.address);
    cleanups.push(() => void refused.socket.destroy());
    expect(JSON.parse(refused.first)).toEqual({ type: 'answer', id: null, ok: false, code: 'BUSY', message: 'Baton already serves 3 connections; retry when some have finished' });

    const error = await connectEndpoint({ endpoint: test.endpoint, token: test.token }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isTransportError(error, 'BUSY')).toBe(true);
    expect((error as Error).message).toContain('retry when some have finished');

    held[0]!.socket.destroy();
    await expect
      .poll(async () => {
        const client = await connectEndpoint({ endpoint: test.endpoint, token: test.token }).catch(() => null);
        if (!client) return 'refused';
        const answer = await client.request('ping', 1);
        client.close();
        return answer.ok ? 'answered' : 'failed';
      })
      .toBe('answered');
  });
});
