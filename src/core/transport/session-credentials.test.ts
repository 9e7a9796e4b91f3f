import { afterEach, describe, expect, it } from 'vitest';
import { connectEndpoint } from './client.js';
import { createCredentialRegistry, MAX_SESSION_CREDENTIALS } from './session-credentials.js';
import { startTestEndpoint, type TestEndpoint } from './test-support/fixture.js';

let fixture: TestEndpoint | undefined;
afterEach(async () => {
  await fixture?.dispose();
  fixture = undefined;
});

async function start() {
  const credentials = createCredentialRegistry();
  fixture = await startTestEndpoint({ credentials, handle: async (_request, connection) => ({ ok: true, credential: connection.credential ?? null }) });
  return { credentials, fixture };
}

describe('session credentials on the endpoint (baton ssh, issue 22)', () => {
  it('a connection made with an issued credential authenticates, and handlers see which one', async () => {
    const { credentials, fixture } = await start();
    const issued = credentials.issue('ssh', 'devbox');
    const client = await connectEndpoint({ endpoint: fixture.endpoint, token: issued.token });
    expect(await client.request('ping', {})).toEqual({ ok: true, credential: { id: issued.id, kind: 'ssh', host: 'devbox' } });
    client.close();
    const local = await connectEndpoint({ endpoint: fixture.endpoint, token: fixture.token });
    expect(await local.request('ping', {})).toEqual({ ok: true, credential: null });
    local.close();
  });

  it('a revoked credential no longer authenticates, and its open connection is refused on the next request', async () => {
    const { credentials, fixture } = await start();
    const issued = credentials.issue('ssh', 'devbox');
    const token = Buffer.from(issued.token); // what the remote holds, kept past revocation
    const open = await connectEndpoint({ endpoint: fixture.endpoint, token });
    expect(credentials.revoke(issued.id)).toBe(true);
    const answer = await open.request('ping', {}).catch((error: unknown) => error);
    expect(answer).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
    open.close();
    await expect(connectEndpoint({ endpoint: fixture.endpoint, token })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(fixture.server.failedProofs).toBe(1);
    expect(credentials.revoke(issued.id)).toBe(false);
  });

  it('one credential never opens the door for another: each is its own 32 random bytes', () => {
    const credentials = createCredentialRegistry();
    const seen = new Set<string>();
    for (let i = 0; i < MAX_SESSION_CREDENTIALS; i++) {
      const issued = credentials.issue('ssh', `h${i}`);
      expect(issued.token).toHaveLength(32);
      seen.add(issued.token.toString('hex'));
      seen.add(issued.id);
    }
    expect(seen.size).toBe(2 * MAX_SESSION_CREDENTIALS);
    expect(() => credentials.issue('ssh', 'one-too-many')).toThrow(/already hold a credential/);
  });
});
