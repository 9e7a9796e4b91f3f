import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../hash.js';
import { carriedPermission, readCarriedPermission, storeCarriedPermission } from './manifest-permissions.js';
import { createHandoffFixture, type HandoffFixture } from './test-support/handoff-fixture.js';

let fixture: HandoffFixture;
beforeEach(async () => {
  fixture = await createHandoffFixture();
});
afterEach(async () => fixture.dispose());

describe('the permission rules artifact', () => {
  it('stores the carried rules (with active grants) by hash, records the ref, and reads them back checked', async () => {
    const { sessionId } = await fixture.landed(2);
    const doc = await fixture.store.mutate(sessionId, (d) => ({ ...d, permission: { mode: 'acceptEdits', rules: ['deny:Bash(rm:*)', 'allow:Bash(npm test:*)', 'grant:Bash(stale)'], sourceTool: 'claude' } }));
    const carried = carriedPermission(doc, ['Bash(make)']);
    expect(carried.rules).toEqual(['allow:Bash(npm test:*)', 'deny:Bash(rm:*)', 'grant:Bash(make)']); // grants come from the log, not the old doc
    expect(carried.sources).toEqual([{ kind: 'baton-grants', rules: 1 }]);
    const stored = await storeCarriedPermission(fixture.store, doc, carried);
    const bytes = await fixture.store.readArtifact(sessionId, stored.rules_ref);
    expect(sha256Hex(bytes)).toBe(stored.rules_sha256);
    expect((await fixture.store.getSession(sessionId)).permission).toMatchObject({ rulesRef: stored.rules_ref, rulesSha256: stored.rules_sha256 });
    expect(await readCarriedPermission(fixture.store, sessionId, stored.rules_ref, stored.rules_sha256)).toEqual(carried);
    // The same rules again: the same artifact, no new write to session.json.
    const revision = (await fixture.store.getSession(sessionId)).revision;
    expect(await storeCarriedPermission(fixture.store, await fixture.store.getSession(sessionId), carried)).toEqual(stored);
    expect((await fixture.store.getSession(sessionId)).revision).toBe(revision);
  });

  it('a tampered artifact, or a manifest naming other rules, is refused with the ref and the hashes', async () => {
    const { sessionId } = await fixture.landed(1);
    const doc = await fixture.store.getSession(sessionId);
    const stored = await storeCarriedPermission(fixture.store, doc, carriedPermission(doc, []));
    const other = 'f'.repeat(64);
    await expect(readCarriedPermission(fixture.store, sessionId, stored.rules_ref, other)).rejects.toMatchObject({
      code: 'VERIFY_MISMATCH',
      message: expect.stringContaining(`hash to ${stored.rules_sha256}, not ${other}`),
    });
    const file = join(fixture.store.sessionDir(sessionId), stored.rules_ref);
    await chmod(file, 0o600);
    await writeFile(file, '{"kind":"baton.permission-rules","rules":["allow:Bash"],"mode":"bypassPermissions"}');
    await expect(readCarriedPermission(fixture.store, sessionId, stored.rules_ref, stored.rules_sha256)).rejects.toThrow(/does not match its hash/);
  });
});
