import { chmod, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Manifest } from '../../shared/manifest.js';
import { createReceiver, type ReceiverEvent } from '../handoff/receiver.js';
import { DESKTOP_CAPABILITIES } from '../host/capabilities.js';
import { landAndReadBack, offerSession } from '../handoff/send.js';
import { createHandoffFixture, type HandoffFixture } from '../handoff/test-support/handoff-fixture.js';
import type { Answer, RequestHandler } from '../transport/types.js';
import { ensureEndpointDir, loadOrCreateToken, resolveEndpoint } from '../transport/endpoint.js';
import { alertsFrom, VERIFY_MISMATCH_EVENT } from './mismatch-alert.js';

const connection = { signal: new AbortController().signal };
const bigOutput = Array.from({ length: 3_000 }, (_, i) => `compiling unit ${i}`).join('\n');
let fixture: HandoffFixture;
let receiver: RequestHandler;
let events: ReceiverEvent[];
let sessionId: string;
let manifest: Manifest;

beforeEach(async () => {
  fixture = await createHandoffFixture();
  events = [];
  // Every capability: this test is about the context fields, not about what a host can show.
  receiver = createReceiver({ store: fixture.store, capabilities: DESKTOP_CAPABILITIES, holder: 'desktop', onEvent: (e) => events.push(e) });
  const landed = await landAndReadBack(fixture.store, {
    cwd: fixture.workDir,
    title: 'Verify me',
    messages: [
      { role: 'user', content: 'Build the project; we must not touch vendored code.' },
      { role: 'assistant', content: 'Building.', toolCalls: [{ id: 'c1', name: 'Bash', input: { command: 'make' }, output: bigOutput, exitCode: 0 }] },
      { role: 'assistant', content: 'Built. Should I run the tests too?' },
    ],
  });
  sessionId = landed.session.id;
  // The real source path builds the manifest (summary, anchors, trimmed output); dry run offers nothing.
  const endpoint = resolveEndpoint(fixture.dataDir, {});
  await ensureEndpointDir(endpoint.dir);
  const outcome = await offerSession(sessionId, { store: fixture.store, endpoint, token: await loadOrCreateToken(endpoint.tokenPath), timeoutMs: 1_000, launch: false, dryRun: true }, landed);
  manifest = (outcome.answer as { manifest: Manifest }).manifest;
});
afterEach(() => fixture.dispose());

const offer = (m: unknown): Promise<Answer> => receiver({ id: 'r1', method: 'handoff.offer', params: { manifest: m } }, connection);
const fieldsOf = (answer: Answer) => (answer as unknown as { mismatches: { field: string }[] }).mismatches.map((m) => m.field);
const artifactPath = (ref: string) => join(fixture.store.sessionDir(sessionId), ref);
async function overwrite(ref: string, text: string) {
  await chmod(artifactPath(ref), 0o600);
  await writeFile(artifactPath(ref), text);
}

/** The manifest as a sender that states no log bytes sends it (a re-offer, an older CLI): the receiver reads every record. */
function fullRead(m: Manifest, context: Partial<Manifest['context']>): Manifest {
  const { log_bytes: _b, log_sha256: _s, ...rest } = m.context;
  return { ...m, context: { ...rest, ...context } };
}

/** Each mismatch is refused, written to events.jsonl and told to the UI as an alert. */
async function expectMismatch(m: Manifest, field: string) {
  const answer = await offer(m);
  expect(answer).toMatchObject({ ok: false, code: 'VERIFY_MISMATCH' });
  expect(fieldsOf(answer)).toContain(field);
  const logged = (await fixture.store.readEvents()).filter((e) => e.kind === VERIFY_MISMATCH_EVENT);
  expect(logged).toHaveLength(1);
  expect(logged[0]).toMatchObject({ side: 'target', sessionId, handoffId: m.handoff_id });
  expect(logged[0]!.fields).toContain(field);
  const alert = events.find((e) => e.kind === 'mismatch')?.alert;
  expect(alert?.fields).toContain(field);
  expect(alert?.message).toContain(field);
  expect(alertsFrom(await fixture.store.readEvents())[0]).toEqual(alert);
  expect((await fixture.store.getSession(sessionId)).holder.epoch).toBe(1);
}

describe('context verified at the target', () => {
  it('accepts the manifest of the real source path: summary, anchors and full outputs all check', async () => {
    expect(manifest.context.compacted_summary_ref).toBe('artifacts/summary-01.md');
    expect(manifest.context.tool_calls_count).toBe(1);
    expect(await offer(manifest)).toMatchObject({ ok: true, status: 'accepted' });
    expect((await fixture.store.readEvents()).filter((e) => e.kind === VERIFY_MISMATCH_EVENT)).toEqual([]);
  });

  it('summary changed on disk → context.compacted_summary_sha256', async () => {
    await overwrite(manifest.context.compacted_summary_ref!, '# not the summary\n');
    await expectMismatch(manifest, 'context.compacted_summary_sha256');
  });

  it('summary hash in the manifest differs → context.compacted_summary_sha256', async () => {
    await expectMismatch({ ...manifest, context: { ...manifest.context, compacted_summary_sha256: '0'.repeat(64) } }, 'context.compacted_summary_sha256');
  });

  it('summary ref without a hash → context.compacted_summary_sha256', async () => {
    await expectMismatch({ ...manifest, context: { ...manifest.context, compacted_summary_sha256: null } }, 'context.compacted_summary_sha256');
  });

  it('an anchor that is not in the log → context.anchor_message_ids', async () => {
    await expectMismatch(fullRead(manifest, { anchor_message_ids: [...manifest.context.anchor_message_ids, 'm-gone'] }), 'context.anchor_message_ids');
  });

  it('a trimmed output whose full text changed → context.full_outputs', async () => {
    const records = await fixture.store.readMessages(sessionId);
    await overwrite(records[1]!.toolCalls![0]!.fullOutput!.ref, 'shorter');
    await expectMismatch(manifest, 'context.full_outputs');
  });

  it('a trimmed output whose full text is gone → context.full_outputs', async () => {
    const records = await fixture.store.readMessages(sessionId);
    await rm(artifactPath(records[1]!.toolCalls![0]!.fullOutput!.ref));
    await expectMismatch(manifest, 'context.full_outputs');
  });

  it('message count → context.message_count', async () => {
    await expectMismatch({ ...manifest, context: { ...manifest.context, message_count: 4 } }, 'context.message_count');
  });

  it('message hash → context.messages_sha256', async () => {
    await expectMismatch(fullRead(manifest, { messages_sha256: 'a'.repeat(64) }), 'context.messages_sha256');
  });

  it('tool-call count → context.tool_calls_count', async () => {
    await expectMismatch(fullRead(manifest, { tool_calls_count: 2 }), 'context.tool_calls_count');
  });

  it('tool-call records hash → context.tool_calls_sha256', async () => {
    await expectMismatch(fullRead(manifest, { tool_calls_sha256: 'b'.repeat(64) }), 'context.tool_calls_sha256');
  });

  it('the landing states the log bytes it read back, and the receiver accepts them as they are', async () => {
    expect(manifest.context.log_bytes).toBeGreaterThan(0);
    expect(manifest.context.log_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await offer(manifest)).toMatchObject({ ok: true, status: 'accepted' });
  });

  it('a byte of the log changed on disk → context.log_sha256', async () => {
    const path = join(fixture.store.sessionDir(sessionId), 'messages.jsonl');
    const bytes = await readFile(path);
    bytes[bytes.indexOf('vendored')] = 0x56; // 'V'
    await writeFile(path, bytes);
    await expectMismatch(manifest, 'context.log_sha256');
  });

  it('the log cut short on disk → context.log_bytes', async () => {
    const path = join(fixture.store.sessionDir(sessionId), 'messages.jsonl');
    await truncate(path, manifest.context.log_bytes! - 10);
    await expectMismatch(manifest, 'context.log_bytes');
  });

  it('bytes appended after the landing are outside the stated range and do not fail it', async () => {
    await fixture.store.append(sessionId, 1, [{ role: 'user', content: 'later' }]);
    expect(await offer(manifest)).toMatchObject({ ok: true, status: 'accepted' });
  });
});
