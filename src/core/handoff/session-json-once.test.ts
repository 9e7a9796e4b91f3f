import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareContext } from '../context/context-transfer.js';
import { delegatingFs } from '../fs/delegating-fs.js';
import { nodeDurableFs } from '../fs/durable-fs.js';
import { canonicalJson, sha256Hex } from '../hash.js';
import { openStore } from '../store/index.js';
import type { SessionStore } from '../store/types.js';
import { ensureEndpointDir, loadOrCreateToken, resolveEndpoint } from '../transport/endpoint.js';
import { readCarriedModel, storeCarriedModel } from './manifest-model.js';
import { carriedPermission, readCarriedPermission } from './manifest-permissions.js';
import { landAndReadBack, offerSession } from './send.js';
import { conversation } from './test-support/handoff-fixture.js';

let root: string;
let store: SessionStore;
/** Every session.json put in place (each write is a temp file renamed over it). */
let sessionJsonWrites: string[];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-session-json-once-'));
  sessionJsonWrites = [];
  const counting = delegatingFs(nodeDurableFs, {
    rename: (from, to) => {
      if (to.endsWith('/session.json')) sessionJsonWrites.push(to);
      return nodeDurableFs.rename(from, to);
    },
  });
  store = await openStore(join(root, 'data'), { fs: counting, keyStore: null });
});
afterEach(async () => {
  await store.close();
  await rm(root, { recursive: true, force: true });
});

/** A new session handed off as the CLI does it (land, then build and record the manifest), dry, so no receiver is needed. */
async function handOff(permission: { mode: string; rules: string[]; sourceTool: string } | null) {
  // The last assistant message names its model (README: message format): the session carries it.
  const messages = conversation(7).map((m, i) => (i === 5 ? { ...m, model: 'claude-sonnet-4-5' } : m));
  const landed = await landAndReadBack(store, { cwd: root, title: 'once', messages, permission });
  const endpoint = resolveEndpoint(join(root, 'data'), {});
  await ensureEndpointDir(endpoint.dir);
  const outcome = await offerSession(landed.session.id, { store, endpoint, token: await loadOrCreateToken(endpoint.tokenPath), timeoutMs: 1_000, launch: false, dryRun: true }, landed);
  const { manifest } = outcome.answer as { manifest: { permission_state: { rules_ref: string; rules_sha256: string }; model: { settings_ref: string; settings_sha256: string }; context: { compacted_summary_ref: string; compacted_summary_sha256: string; anchor_message_ids: string[]; token_estimate: number; token_estimate_method: string } } };
  return { landed, manifest };
}

describe('a new session handed off', () => {
  it('writes session.json once, in the staging directory: its permission rules, model settings and first summary land with it', async () => {
    const { landed, manifest } = await handOff({ mode: 'acceptEdits', rules: ['deny:Bash(rm:*)', 'allow:Bash(npm test:*)'], sourceTool: 'claude' });
    expect(sessionJsonWrites).toHaveLength(1);
    expect(sessionJsonWrites[0]).toMatch(/\.creating\/session\.json$/);
    const stored = await store.getSession(landed.session.id);
    expect(stored.revision).toBe(landed.session.revision);
    expect(stored.permission).toMatchObject({ rulesRef: manifest.permission_state.rules_ref, rulesSha256: manifest.permission_state.rules_sha256 });
    expect(stored.model).toMatchObject({ name: 'claude-sonnet-4-5', settingsRef: manifest.model.settings_ref, settingsSha256: manifest.model.settings_sha256 });
    expect(stored.context).toMatchObject({ compactedSummaryRef: 'artifacts/summary-01.md', compactedSummarySha256: manifest.context.compacted_summary_sha256, summaryNumber: 1 });
    const summary = await store.readArtifact(landed.session.id, manifest.context.compacted_summary_ref, manifest.context.compacted_summary_sha256);
    expect(Buffer.from(summary).toString('utf8')).toContain(landed.session.id);
  });

  for (const permission of [null, { mode: 'plan', rules: ['allow:Read'], sourceTool: 'codex' }]) {
    it(`lands the rules and summary the handoff wrote after the landing before (permission ${permission ? permission.mode : 'none'})`, async () => {
      const { landed, manifest } = await handOff(permission);
      const stored = await store.getSession(landed.session.id);
      // The rules: what storeCarriedPermission stores for a session with no grants, by hash.
      const carried = carriedPermission(stored, []);
      expect(manifest.permission_state.rules_sha256).toBe(sha256Hex(canonicalJson(carried)));
      expect(manifest.permission_state.rules_ref).toBe(`artifacts/${manifest.permission_state.rules_sha256}.json`);
      expect(await readCarriedPermission(store, stored.id, manifest.permission_state.rules_ref, manifest.permission_state.rules_sha256)).toEqual(carried);
      expect(stored.permission).toEqual({ ...(permission ?? { mode: 'default', rules: [] }), sources: [], rulesRef: manifest.permission_state.rules_ref, rulesSha256: manifest.permission_state.rules_sha256 });
      // The model settings: what storeCarriedModel stores, so it writes nothing more.
      expect(await storeCarriedModel(store, stored)).toEqual({ name: 'claude-sonnet-4-5', ...manifest.model });
      expect(await readCarriedModel(store, stored.id, manifest.model.settings_ref, manifest.model.settings_sha256)).toMatchObject({ name: 'claude-sonnet-4-5', sessionId: stored.id });
      expect((await store.getSession(stored.id)).revision).toBe(stored.revision);
      // The summary: the one prepareContext writes for this session read from disk with no summary
      // yet (the same name with other bytes would be refused, CONFLICT), and the same fields.
      const records = await store.readMessages(stored.id);
      const written = await prepareContext(store, { ...stored, context: undefined }, records);
      expect(written).toEqual({
        anchor_message_ids: manifest.context.anchor_message_ids,
        token_estimate: manifest.context.token_estimate,
        token_estimate_method: manifest.context.token_estimate_method,
        compacted_summary_ref: manifest.context.compacted_summary_ref,
        compacted_summary_sha256: manifest.context.compacted_summary_sha256,
      });
      expect((await store.getSession(stored.id)).context).toEqual(stored.context);
    });
  }
});
