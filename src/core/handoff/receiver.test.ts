import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReceiver, type OfferConnection } from './receiver.js';
import { createHandoffFixture, type HandoffFixture } from './test-support/handoff-fixture.js';
import type { Answer, RequestHandler } from '../transport/types.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from '../workspace/test-support/repo.js';
import { countingCompiles } from '../../shared/test-support/counting-compiles.js';

const connection = { signal: new AbortController().signal };
let fixture: HandoffFixture;
let receiver: RequestHandler;
let events: unknown[];

const offer = (manifest: unknown): Promise<Answer> => receiver({ id: 'r1', method: 'handoff.offer', params: { manifest } }, connection);

beforeEach(async () => {
  fixture = await createHandoffFixture();
  events = [];
  receiver = createReceiver({ store: fixture.store, capabilities: ['conversation', 'diff-viewer'], holder: 'desktop', onEvent: (e) => events.push(e) });
});
afterEach(() => fixture.dispose());

describe('receiver: handoff.offer', () => {
  it('accepts a verified offer, takes the baton once and tells the UI', async () => {
    const { sessionId, manifest } = await fixture.landed(6);
    const answer = await offer(manifest);
    expect(answer).toMatchObject({ ok: true, status: 'accepted', sessionId, epoch: 2 });
    const session = await fixture.store.getSession(sessionId);
    expect(session.holder).toMatchObject({ who: 'desktop', epoch: 2, handoffId: manifest.handoff_id });
    expect(events).toEqual([{ kind: 'handoff', sessionId, status: 'accepted' }]);
  });

  it("a host's first offer compiles no zod parser (the manifest's compile was ~6 ms of that answer)", async () => {
    const { manifest } = await fixture.landed(6);
    const { result, compiles } = await countingCompiles(() => offer(manifest));
    expect(result).toMatchObject({ ok: true, status: 'accepted' });
    expect(compiles).toBe(0);
  });

  it('answers a replay with duplicate and the first answer, without claiming again', async () => {
    const { sessionId, manifest } = await fixture.landed();
    const first = await offer(manifest);
    const again = await offer(structuredClone(manifest));
    expect(again).toMatchObject({ ok: true, status: 'duplicate', firstStatus: 'accepted', epoch: (first as unknown as { epoch: number }).epoch });
    expect((await fixture.store.getSession(sessionId)).holder.epoch).toBe(2);
  });

  it('answers CONFLICT for the same handoff id with another payload', async () => {
    const { manifest } = await fixture.landed();
    await offer(manifest);
    const answer = await offer({ ...manifest, title: 'changed' });
    expect(answer).toMatchObject({ ok: false, code: 'CONFLICT' });
  });

  it('lists every field that differs from the disk as VERIFY_MISMATCH', async () => {
    const { manifest } = await fixture.landed(4);
    const answer = await offer({ ...manifest, context: { ...manifest.context, message_count: 5, messages_sha256: 'f'.repeat(64) } });
    expect(answer).toMatchObject({ ok: false, code: 'VERIFY_MISMATCH' });
    expect((answer as unknown as { mismatches: { field: string }[] }).mismatches.map((m) => m.field)).toEqual(['context.message_count', 'context.messages_sha256']);
  });

  it('detects a message appended after the manifest was built', async () => {
    const { sessionId, manifest } = await fixture.landed(2);
    await fixture.store.append(sessionId, 1, [{ role: 'user', content: 'one more' }]);
    expect(await offer(manifest)).toMatchObject({ ok: false, code: 'VERIFY_MISMATCH' });
  });

  it('answers needs-capabilities with what is missing, and records nothing', async () => {
    const { sessionId, manifest } = await fixture.landed();
    const answer = await offer({ ...manifest, capabilities_required: ['conversation', 'approval-ui', 'task-panel'] });
    expect(answer).toMatchObject({ ok: true, status: 'needs-capabilities', missing: ['approval-ui', 'task-panel'] });
    expect(await fixture.store.getReceipt(manifest.handoff_id)).toBeUndefined();
    expect((await fixture.store.getSession(sessionId)).holder.epoch).toBe(1);
  });

  it('refuses a newer major protocol naming both versions', async () => {
    const { manifest } = await fixture.landed();
    const answer = await offer({ ...manifest, protocol_version: '2.0' });
    expect(answer).toMatchObject({ ok: false, code: 'UPGRADE_REQUIRED' });
    expect((answer as { message: string }).message).toMatch(/2\.0.*1\.x/);
  });

  it('rejects an invalid manifest with the failing paths', async () => {
    const answer = await offer({ protocol_version: '1.0', handoff_id: '../etc' });
    expect(answer).toMatchObject({ ok: false, code: 'INVALID_MANIFEST' });
    expect((answer as { message: string }).message).toContain('handoff_id');
  });

  it('rejects an offer for a session that is not in the store', async () => {
    const { manifest } = await fixture.landed();
    const answer = await offer({ ...manifest, session_id: 'no-such-session' });
    expect(answer).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });

  it('keeps unknown manifest fields in the recorded receipt payload hash (replay with them is a duplicate)', async () => {
    const { manifest } = await fixture.landed();
    const extended = { ...manifest, future_field: { nested: [1, 2] } };
    expect(await offer(extended)).toMatchObject({ status: 'accepted' });
    expect(await offer(extended)).toMatchObject({ status: 'duplicate' });
    expect(await offer(manifest)).toMatchObject({ code: 'CONFLICT' });
  });
});

describe('receiver: the workspace verdict in the answer', () => {
  /** The fixture's work directory as a real repository with one committed and one changed file. */
  async function dirtyRepo(): Promise<void> {
    await writeFile(join(fixture.workDir, 'a.txt'), 'one\n');
    git(fixture.workDir, 'init', '-q', '-b', 'main');
    git(fixture.workDir, 'add', '-A');
    git(fixture.workDir, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-qm', 'start');
    await writeFile(join(fixture.workDir, 'a.txt'), 'two\n');
  }

  it('answers with the work tree as it is when the offer is verified (complete, then partial after a change)', async () => {
    await dirtyRepo();
    const first = await fixture.landed();
    expect(await offer(first.manifest)).toMatchObject({ status: 'accepted', workspace: { status: 'complete', drifted: [] } });
    const second = await fixture.landed();
    await writeFile(join(fixture.workDir, 'a.txt'), 'three\n');
    expect(await offer(second.manifest)).toMatchObject({ status: 'accepted', workspace: { status: 'partial', drifted: ['a.txt'] } });
  });

  it("records the narrowing's change in the write that takes the baton: one write of session.json per accepted offer", async () => {
    const { sessionId, manifest } = await fixture.landed();
    const before = await fixture.store.getSession(sessionId);
    const narrowing = createReceiver({
      store: fixture.store,
      capabilities: ['conversation', 'diff-viewer'],
      holder: 'desktop',
      prepareAccept: async () => async () => (doc) => (doc.title === 'narrowed' ? doc : { ...doc, title: 'narrowed' }),
    });
    expect(await narrowing({ id: 'n', method: 'handoff.offer', params: { manifest } }, connection)).toMatchObject({ status: 'accepted', epoch: 2 });
    const after = await fixture.store.getSession(sessionId);
    expect(after).toMatchObject({ title: 'narrowed', holder: { who: 'desktop', epoch: 2, handoffId: manifest.handoff_id } });
    expect(after.revision).toBe(before.revision + 1);
  });

  it('a refused narrowing refuses the offer whatever the verdict running beside it found, and the baton stays', async () => {
    await dirtyRepo();
    const { sessionId, manifest } = await fixture.landed();
    const refusing = createReceiver({
      store: fixture.store,
      capabilities: ['conversation', 'diff-viewer'],
      holder: 'desktop',
      prepareAccept: async () => async () => {
        throw Object.assign(new Error('narrowing refused'), { code: 'POLICY' });
      },
    });
    expect(await refusing({ id: 'r', method: 'handoff.offer', params: { manifest } }, connection)).toMatchObject({ ok: false, code: 'POLICY', message: 'narrowing refused' });
    expect((await fixture.store.getSession(sessionId)).holder.epoch).toBe(1);
    expect(await fixture.store.getReceipt(manifest.handoff_id)).toBeUndefined();
  });
});

describe("receiver: the narrowing's reads beside the sender's record (prepareAccept)", () => {
  it("reads while the sender's record is still being saved, and writes (revocations, the baton) only once it is durable", async () => {
    const { sessionId, manifest } = await fixture.landed();
    const steps: string[] = [];
    let recordDurable!: () => void;
    const recorded = new Promise<void>((resolve) => (recordDurable = resolve));
    const take = createReceiver({
      store: fixture.store,
      capabilities: ['conversation', 'diff-viewer'],
      holder: 'desktop',
      prepareAccept: async () => {
        steps.push('narrowing read');
        return async () => {
          steps.push('revocations written');
          return (doc) => ({ ...doc, title: 'narrowed' });
        };
      },
    });
    const inProcess: OfferConnection = { ...connection, beforeTake: recorded };
    const answer = take({ id: 'a', method: 'handoff.offer', params: { manifest } }, inProcess);
    await expect.poll(() => steps, { timeout: 5_000 }).toEqual(['narrowing read']);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(steps).toEqual(['narrowing read']); // nothing of the take before the record is durable
    expect((await fixture.store.getSession(sessionId)).holder.epoch).toBe(1);
    steps.push('record durable');
    recordDurable();
    expect(await answer).toMatchObject({ status: 'accepted', epoch: 2 });
    expect(steps).toEqual(['narrowing read', 'record durable', 'revocations written']);
    expect(await fixture.store.getSession(sessionId)).toMatchObject({ title: 'narrowed', holder: { who: 'desktop', epoch: 2 } });
  });

  it('a narrowing whose reads fail refuses the offer with its code, and the baton stays', async () => {
    const { sessionId, manifest } = await fixture.landed();
    const refusing = createReceiver({
      store: fixture.store,
      capabilities: ['conversation', 'diff-viewer'],
      holder: 'desktop',
      prepareAccept: () => Promise.reject(Object.assign(new Error('the host policy could not be read'), { code: 'POLICY' })),
    });
    expect(await refusing({ id: 'r', method: 'handoff.offer', params: { manifest } }, connection)).toMatchObject({ ok: false, code: 'POLICY' });
    expect((await fixture.store.getSession(sessionId)).holder.epoch).toBe(1);
    expect(await fixture.store.getReceipt(manifest.handoff_id)).toBeUndefined();
  });
});

describe('receiver: other methods', () => {
  it('answers ping with its capabilities', async () => {
    expect(await receiver({ id: 'p', method: 'ping', params: {} }, connection)).toMatchObject({ ok: true, capabilities: ['conversation', 'diff-viewer'] });
  });

  it('session.open selects a stored session and refuses an unknown one', async () => {
    const { sessionId } = await fixture.landed();
    expect(await receiver({ id: 'o', method: 'session.open', params: { sessionId } }, connection)).toMatchObject({ ok: true });
    expect(events).toContainEqual({ kind: 'select', sessionId });
    expect(await receiver({ id: 'o', method: 'session.open', params: { sessionId: 'nope' } }, connection)).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });

  it('answers UNKNOWN_METHOD', async () => {
    expect(await receiver({ id: 'u', method: 'rm -rf', params: {} }, connection)).toMatchObject({ ok: false, code: 'UNKNOWN_METHOD' });
  });
});
