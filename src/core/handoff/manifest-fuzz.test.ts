import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Manifest } from '../../shared/manifest.js';
import { createReceiver } from './receiver.js';
import { createHandoffFixture, type HandoffFixture } from './test-support/handoff-fixture.js';
import type { Manifest as ManifestType } from '../../shared/manifest.js';

/** Runs over hostile manifests; the transport's own fuzzers cover frames and URLs. */
const RUNS = 20_000;
const connection = { signal: new AbortController().signal };
let fixture: HandoffFixture;
let valid: ManifestType;

beforeAll(async () => {
  fixture = await createHandoffFixture();
  valid = (await fixture.landed(2)).manifest;
});
afterAll(() => fixture.dispose());

describe('manifest parsing under hostile input', () => {
  it(`never throws and rejects with a typed code (${RUNS} runs of arbitrary JSON)`, async () => {
    const receiver = createReceiver({ store: fixture.store, capabilities: ['conversation'], holder: 'desktop' });
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), async (value) => {
        const answer = await receiver({ id: 'f', method: 'handoff.offer', params: { manifest: value } }, connection);
        expect(answer.ok).toBe(false);
        expect(['INVALID_MANIFEST', 'UPGRADE_REQUIRED']).toContain(answer.code);
      }),
      { numRuns: RUNS },
    );
  });

  it('survives a valid manifest with one field replaced by anything (5,000 runs)', async () => {
    const receiver = createReceiver({ store: fixture.store, capabilities: ['conversation'], holder: 'desktop' });
    const keys = Object.keys(valid);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...keys), fc.anything({ maxDepth: 3 }), async (key, replacement) => {
        const mutated = { ...valid, [key]: replacement, handoff_id: `fuzz-${Math.random().toString(36).slice(2)}` };
        const answer = await receiver({ id: 'f', method: 'handoff.offer', params: { manifest: mutated } }, connection);
        expect(typeof answer.ok).toBe('boolean');
        if (!answer.ok) expect(typeof answer.code).toBe('string');
      }),
      { numRuns: 5_000 },
    );
  });

  it('keeps __proto__ keys as data, never as a prototype', () => {
    const parsed = Manifest.safeParse(JSON.parse(JSON.stringify(valid).replace('{', '{"__proto__":{"polluted":true},')));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(parsed.success).toBe(true);
  });
});
