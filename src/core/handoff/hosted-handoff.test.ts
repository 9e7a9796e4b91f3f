import { mkdtemp, rm } from 'node:fs/promises';
import { getEventListeners } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../store/index.js';
import type { SessionStore } from '../store/types.js';
import type { ConnectionContext } from '../transport/types.js';
import { newId } from '../../shared/ids.js';
import { HOSTED_HANDOFF_METHOD, HOSTED_HANDOFF_PART_BYTES } from './hosted-handoff-request.js';
import { createHostedHandoff, HOSTED_HANDOFF_PENDING_MAX, type HostedHandoff } from './hosted-handoff.js';
import type { OfferConnection } from './receiver.js';
import { cleanupTemp, makeRepo } from '../workspace/test-support/repo.js';

/**
 * What the host holds for requests whose parts are still arriving, and what it waits for as it
 * closes, with a real store and the connection context the endpoint server gives each handler (its
 * signal fires when the peer disconnects): one listener per connection, nothing held past it.
 */
let root: string;
let store: SessionStore;
let hosted: HostedHandoff;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-hosted-unit-'));
  store = await openStore(join(root, 'data'));
  hosted = hostedWith(() => Promise.reject(new Error('no request here gets as far as the offer')));
});
afterEach(async () => {
  await store.close();
  await rm(root, { recursive: true, force: true });
});

/** A hosted handoff on this test's store whose offers go to `take`. */
const hostedWith = (take: Parameters<typeof createHostedHandoff>[0]['take']) =>
  createHostedHandoff({ store, endpoint: { address: join(root, 'none.sock'), dir: root, tokenPath: join(root, 'token') }, token: Buffer.alloc(32), take });

const connection = () => {
  const controller = new AbortController();
  return { controller, context: { signal: controller.signal } satisfies ConnectionContext };
};
const firstPart = (sessionId: string, cwd = root) => ({
  id: '1',
  method: HOSTED_HANDOFF_METHOD,
  params: { sessionId, cwd, source: 'm', bytes: HOSTED_HANDOFF_PART_BYTES + 5, parts: 2, part: 0, data: Buffer.alloc(HOSTED_HANDOFF_PART_BYTES, 0x20).toString('base64') },
});

describe('parts held by the host', () => {
  it('a first part sent again and again on one connection holds one entry and one listener, none once it closes', async () => {
    const { controller, context } = connection();
    const id = newId('s-');
    for (let i = 0; i < 20; i++) expect(await hosted.handle(firstPart(id), context)).toMatchObject({ ok: true, part: 0 });
    // Before: one listener (holding its 144 KiB entry) per first part.
    expect(getEventListeners(context.signal, 'abort')).toHaveLength(1);
    for (let i = 1; i < HOSTED_HANDOFF_PENDING_MAX; i++) expect(await hosted.handle(firstPart(newId('s-')), context)).toMatchObject({ ok: true });
    expect(getEventListeners(context.signal, 'abort')).toHaveLength(1);
    const other = connection();
    expect(await hosted.handle(firstPart(newId('s-')), other.context)).toMatchObject({ ok: false, code: 'BUSY' });
    controller.abort();
    expect(getEventListeners(context.signal, 'abort')).toHaveLength(0);
    expect(await hosted.handle(firstPart(newId('s-')), other.context)).toMatchObject({ ok: true, part: 0 });
  });

  it('a first part whose connection closed before it was handled holds no slot', async () => {
    for (let i = 0; i < HOSTED_HANDOFF_PENDING_MAX * 2; i++) {
      const { controller, context } = connection();
      controller.abort(); // the early endpoint queued it; its peer left before serve()
      expect(await hosted.handle(firstPart(newId('s-')), context)).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    }
    // Before: each held a slot forever, and every multi-part handoff was BUSY from then on.
    expect(await hosted.handle(firstPart(newId('s-')), connection().context)).toMatchObject({ ok: true, part: 0 });
  });
});

describe('settle', () => {
  it('waits for a request still checking its cwd (not yet among the answers)', async () => {
    let answered = false;
    const line = Buffer.from('{"role":"user","content":"hi"}\n');
    const call = hosted
      .handle({ id: '1', method: HOSTED_HANDOFF_METHOD, params: { sessionId: newId('s-'), cwd: join(root, 'missing'), source: 'm', bytes: line.length, parts: 1, part: 0, data: line.toString('base64') } }, connection().context)
      .then((answer) => ((answered = true), answer));
    await hosted.settle();
    expect(answered).toBe(true);
    expect(await call).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
  });
});

describe('the offer of a landing', () => {
  afterAll(cleanupTemp);

  it("carries the capture's view of the repository it landed to the receiver (its verdict asks git nothing), and none for a session found saved", async () => {
    const repo = makeRepo();
    repo.write('a.txt', 'a\n');
    repo.commitAll('base');
    repo.write('a.txt', 'a changed\n');
    const offered: OfferConnection[] = [];
    const recording = async (_manifest: unknown, connection: OfferConnection) => (offered.push(connection), { ok: false, code: 'REJECTED', message: 'recorded, not taken' });
    const taking = hostedWith(recording);
    const data = Buffer.from('{"role":"user","content":"hi"}\n');
    const request = (sessionId: string) => ({ id: '1', method: HOSTED_HANDOFF_METHOD, params: { sessionId, cwd: repo.root, source: 'm.jsonl', git: true, bytes: data.length, parts: 1, part: 0, data: data.toString('base64') } });
    const id = newId('s-');
    expect(await taking.handle(request(id), connection().context)).toMatchObject({ ok: true, outcome: { sessionId: id } });
    expect(offered).toHaveLength(1);
    expect(offered[0]!.observedWorkspace).toMatchObject({ located: { root: repo.root }, status: { entries: [expect.objectContaining({ path: 'a.txt' })] } });
    // The same request from a host that no longer remembers it: the saved session is offered again, without a capture of its own.
    const again = hostedWith(recording);
    await again.handle(request(id), connection().context);
    expect(offered).toHaveLength(2);
    expect(offered[1]!.observedWorkspace).toBeUndefined();
    await taking.settle();
    await again.settle();
  });
});
