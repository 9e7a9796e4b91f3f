import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Manifest } from '../../shared/manifest.js';
import { sha256Hex } from '../hash.js';
import { batonModelNamed, readCarriedModel, storeCarriedModel, verifyModel } from './manifest-model.js';
import { scanMessageArray } from './message-source.js';
import { createHandoffFixture, type HandoffFixture } from './test-support/handoff-fixture.js';

let fixture: HandoffFixture;
beforeEach(async () => {
  fixture = await createHandoffFixture();
});
afterEach(async () => fixture.dispose());

const SECRET = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';

describe('the model settings artifact', () => {
  it('stores the redacted settings by hash, records the ref in session.json, reads back checked; the same settings write nothing new', async () => {
    const { sessionId } = await fixture.landed(2);
    const doc = await fixture.store.mutate(sessionId, (d) => ({ ...d, model: { name: 'gpt-5.3-codex', settings: { sourceTool: 'codex', model: 'gpt-5.3-codex', reasoningEffort: 'high', personality: `p ${SECRET}`, instructions: [], sources: [] } } }));
    const stored = await storeCarriedModel(fixture.store, doc);
    expect(stored).toMatchObject({ name: 'gpt-5.3-codex', settings_ref: expect.stringMatching(/^artifacts\/[0-9a-f]{64}\.json$/) });
    const bytes = await fixture.store.readArtifact(sessionId, stored!.settings_ref);
    expect(sha256Hex(bytes)).toBe(stored!.settings_sha256);
    expect(new TextDecoder().decode(bytes)).not.toContain(SECRET);
    const carried = await readCarriedModel(fixture.store, sessionId, stored!.settings_ref, stored!.settings_sha256);
    expect(carried).toMatchObject({ kind: 'baton.model-settings', name: 'gpt-5.3-codex', settings: { reasoningEffort: 'high' } });
    const after = await fixture.store.getSession(sessionId);
    expect(after.model).toMatchObject({ settingsRef: stored!.settings_ref, settingsSha256: stored!.settings_sha256 });
    expect(await storeCarriedModel(fixture.store, after)).toEqual(stored);
    expect((await fixture.store.getSession(sessionId)).revision).toBe(after.revision);
  });

  it('a session without a model carries none', async () => {
    const { sessionId } = await fixture.landed(1);
    expect(await storeCarriedModel(fixture.store, { ...(await fixture.store.getSession(sessionId)), model: null })).toBeNull();
  });

  it('verifyModel: agreeing bytes pass; a tampered artifact, a missing hash or another model name is a mismatch naming the field', async () => {
    const { sessionId, manifest } = await fixture.landed(1);
    const doc = await fixture.store.mutate(sessionId, (d) => ({ ...d, model: { name: 'claude-opus-4-6', settings: { sourceTool: 'claude', model: 'claude-opus-4-6', outputStyle: 'Explanatory', instructions: [], sources: [] } } }));
    const stored = (await storeCarriedModel(fixture.store, doc))!;
    const withModel = (model: Manifest['model']): Manifest => ({ ...manifest, model });
    expect(await verifyModel(fixture.store, withModel(stored))).toEqual([]);
    expect(await verifyModel(fixture.store, withModel({ name: 'claude-opus-4-6', settings_ref: null }))).toEqual([]);
    expect(await verifyModel(fixture.store, withModel({ name: 'claude-opus-4-6', settings_ref: stored.settings_ref }))).toEqual([{ field: 'model.settings_sha256', expected: 'a sha256 for the model settings', actual: null }]);
    expect(await verifyModel(fixture.store, withModel({ ...stored, name: 'other' }))).toEqual([{ field: 'model.name', expected: 'other', actual: 'claude-opus-4-6' }]);
    const other = 'f'.repeat(64);
    expect(await verifyModel(fixture.store, withModel({ ...stored, settings_sha256: other }))).toEqual([
      { field: 'model.settings_sha256', expected: other, actual: expect.stringContaining(`hash to ${stored.settings_sha256}, not ${other}`) },
    ]);
    const file = join(fixture.store.sessionDir(sessionId), stored.settings_ref);
    await chmod(file, 0o600);
    await writeFile(file, '{"kind":"baton.model-settings","name":"claude-opus-4-6","settings":{"outputStyle":"Learning"}}');
    const [mismatch] = await verifyModel(fixture.store, withModel(stored));
    expect(mismatch).toMatchObject({ field: 'model.settings_sha256', expected: stored.settings_sha256 });
  });
});

it('a Baton session\'s model: the last assistant message that names one, as the landing scans it', async () => {
  const modelOf = async (messages: Parameters<typeof scanMessageArray>[0]) => {
    const input = await scanMessageArray(messages);
    if (!input.ok) throw new Error(input.message);
    return batonModelNamed(input.scan.lastAssistantModel);
  };
  expect(await modelOf([{ role: 'user', content: 'a' }])).toBeNull();
  expect(
    await modelOf([
      { role: 'assistant', content: 'a', model: 'm1' },
      { role: 'user', content: 'b', model: 'not-an-assistant' },
      { role: 'assistant', content: 'c' },
    ]),
  ).toEqual({ name: 'm1', settings: { sourceTool: 'baton', model: 'm1', instructions: [], sources: [] } });
});
