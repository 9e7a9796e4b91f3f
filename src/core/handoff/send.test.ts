import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureEndpointDir, loadOrCreateToken, resolveEndpoint } from '../transport/endpoint.js';
import { startEndpointServer } from '../transport/server.js';
import type { EndpointServer } from '../transport/types.js';
import { createReceiver } from './receiver.js';
import { offerSession } from './send.js';
import { createHandoffFixture, type HandoffFixture } from './test-support/handoff-fixture.js';
import { DESKTOP_CAPABILITIES } from '../host/capabilities.js';

let fixture: HandoffFixture;
let server: EndpointServer | null;

beforeEach(async () => {
  fixture = await createHandoffFixture();
  server = null;
});
afterEach(async () => {
  await server?.close();
  await fixture.dispose();
});

async function endpointAndToken() {
  const endpoint = resolveEndpoint(fixture.dataDir, {});
  await ensureEndpointDir(endpoint.dir);
  return { endpoint, token: await loadOrCreateToken(endpoint.tokenPath) };
}

async function startReceiver(capabilities: string[] = [...DESKTOP_CAPABILITIES]) {
  const { endpoint, token } = await endpointAndToken();
  server = await startEndpointServer({ endpoint, token, handle: createReceiver({ store: fixture.store, capabilities, holder: 'desktop' }) });
}

const options = async (overrides: Partial<Parameters<typeof offerSession>[1]> = {}) => ({
  store: fixture.store,
  ...(await endpointAndToken()),
  timeoutMs: 2_000,
  launch: false,
  dryRun: false,
  ...overrides,
});

describe('offerSession', () => {
  it('offers a landed session over the real socket and is accepted, then answered duplicate', async () => {
    await startReceiver();
    const { sessionId } = await fixture.landed(150);
    const first = await offerSession(sessionId, await options());
    expect(first.category).toBe('accepted');
    expect(first.answer).toMatchObject({ status: 'accepted', sessionId, epoch: 2 });
    const again = await offerSession(sessionId, await options());
    expect(again.category).toBe('duplicate');
    expect(again.handoffId).toBe(first.handoffId);
  });

  it('with no receiver: no_target at once, and the session stays saved', async () => {
    const { sessionId } = await fixture.landed(3);
    const started = Date.now();
    const outcome = await offerSession(sessionId, await options({ timeoutMs: 10_000 }));
    expect(outcome.category).toBe('no_target');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(outcome.sessionDir).toBe(fixture.store.sessionDir(sessionId));
    expect(await fixture.store.readMessages(sessionId)).toHaveLength(3);
  });

  it('reports needs_capabilities from a host that lacks them', async () => {
    await startReceiver([]);
    const { sessionId } = await fixture.landed(1);
    expect((await offerSession(sessionId, await options())).category).toBe('needs_capabilities');
  });

  it('a dry run builds and records the manifest but sends nothing', async () => {
    await startReceiver();
    const { sessionId } = await fixture.landed(2);
    const outcome = await offerSession(sessionId, await options({ dryRun: true }));
    expect(outcome.answer).toMatchObject({ dryRun: true });
    expect(await fixture.store.getReceipt(outcome.handoffId!)).toBeUndefined();
  });

  it('a session that changed since the last offer gets a new handoff id', async () => {
    await startReceiver();
    const { sessionId } = await fixture.landed(2);
    const first = await offerSession(sessionId, await options());
    const session = await fixture.store.getSession(sessionId);
    await fixture.store.append(sessionId, session.holder.epoch, [{ role: 'user', content: 'later' }]);
    const second = await offerSession(sessionId, await options());
    expect(second.handoffId).not.toBe(first.handoffId);
    expect(second.category).toBe('accepted');
  });
});

describe('landAndReadBack', () => {
  it('redacts secrets before anything is written, and counts them', async () => {
    const { landAndReadBack } = await import('./send.js');
    const session = (await landAndReadBack(fixture.store, {
      cwd: fixture.workDir,
      title: 'secrets',
      messages: [
        { role: 'user', content: 'use AKIAIOSFODNN7EXAMPLE' },
        { role: 'assistant', content: 'ok', toolCalls: [{ id: 't', name: 'Bash', input: { command: 'curl -H "Authorization: Bearer abcdefghijklmnopqrstuvwxyz123"' } }] },
      ],
    })).session;
    const records = await fixture.store.readMessages(session.id);
    expect(records[0]!.content).toBe('use [REDACTED:aws-access-key]');
    expect(JSON.stringify(records[1]!.toolCalls)).toContain('[REDACTED:bearer-token]');
    expect((await fixture.store.getSession(session.id)).redactions).toEqual({ 'aws-access-key': 1, 'bearer-token': 1 });
    const { readFile } = await import('node:fs/promises');
    const raw = await readFile(`${fixture.store.sessionDir(session.id)}/messages.jsonl`, 'utf8');
    expect(raw).not.toContain('AKIAIOSFODNN7EXAMPLE');
  });
});

describe('landAndReadBack for an imported session', () => {
  it('keeps the conversation when the recorded directory no longer exists', async () => {
    const { landAndReadBack } = await import('./send.js');
    const gone = `${fixture.workDir}/moved-away`;
    const session = (await landAndReadBack(fixture.store, {
      cwd: gone,
      title: 'from claude',
      messages: [{ role: 'user', content: 'hi' }],
      source: { tool: 'claude', externalId: 'abc' },
    })).session;
    expect(session.cwd).toBe(gone);
    expect(session.gitRoot).toBeNull();
    expect(await fixture.store.readMessages(session.id)).toHaveLength(1);
  });

  it('refuses a missing directory for a session handed off by Baton itself', async () => {
    const { landAndReadBack } = await import('./send.js');
    await expect(landAndReadBack(fixture.store, { cwd: `${fixture.workDir}/nope`, title: 't', messages: [] })).rejects.toMatchObject({ code: 'WORKSPACE_CWD_MISSING' });
  });
});
