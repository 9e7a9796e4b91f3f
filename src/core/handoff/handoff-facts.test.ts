import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApprovalLog, APPROVALS_FILE } from '../approvals/index.js';
import { captureWorkspace } from '../workspace/capture.js';
import { buildManifest } from './build-manifest.js';
import { changedPaths, factsMatch, gatherHandoffFacts } from './handoff-facts.js';
import { readApprovalFacts } from './session-approvals.js';
import { createHandoffFixture, type HandoffFixture } from './test-support/handoff-fixture.js';

let fixture: HandoffFixture;
beforeEach(async () => {
  fixture = await createHandoffFixture();
});
afterEach(async () => fixture.dispose());

const request = (sessionId: string, requestId: string) => ({
  type: 'request' as const,
  schemaVersion: 1,
  requestId,
  sessionId,
  tool: 'Bash',
  input: { command: 'npm publish' },
  cwd: '/w',
  workspaceRoot: '/w',
  risk: { level: 'medium' as const, reasons: [] },
  createdAt: '2026-11-30T10:00:00.000Z',
  expiresAt: '2026-11-30T10:10:00.000Z',
});

describe('gatherHandoffFacts (real store, real approvals log, real task files)', () => {
  it('a pending approval needs approval-ui even in bypassPermissions; imported tasks need the task panel; active grants travel with the rules', async () => {
    const { sessionId } = await fixture.landed(2);
    await fixture.store.mutate(sessionId, (d) => ({
      ...d,
      permission: { mode: 'bypassPermissions', rules: ['deny:Bash(rm:*)'], sourceTool: 'claude' },
      tasks: [{ id: 'claude-shell-bash_1', kind: 'background-shell', command: 'npm run dev', pid: null, state: 'running', origin: 'claude', recoverable: false }],
    }));
    const log = new ApprovalLog(join(fixture.store.sessionDir(sessionId), APPROVALS_FILE));
    await log.append(request(sessionId, 'r1'));
    await log.append(request(sessionId, 'r2'));
    await log.append({ type: 'decision', requestId: 'r2', sessionId, decision: 'approve', by: 'user', reason: null, confirmedHighRisk: false, grantId: 'g1', decidedAt: '2026-11-30T10:01:00.000Z' });
    await log.append({ type: 'grant', grant: { id: 'g1', sessionId, rule: 'Bash(npm test)', requestId: 'r2', createdAt: '2026-11-30T10:01:00.000Z' } });
    await log.append({ type: 'grant', grant: { id: 'g2', sessionId, rule: 'Bash(make)', requestId: 'r2', createdAt: '2026-11-30T10:01:00.000Z' } });
    await log.append({ type: 'revoke', grantId: 'g2', sessionId, reason: 'x', revokedAt: '2026-11-30T10:02:00.000Z' });
    expect(await readApprovalFacts(fixture.store, sessionId)).toEqual({ pending: 1, activeGrants: ['Bash(npm test)'] });

    const session = await fixture.store.getSession(sessionId);
    const workspace = await captureWorkspace(fixture.workDir);
    const facts = await gatherHandoffFacts(fixture.store, session, workspace);
    expect(facts.capabilities).toEqual(['conversation', 'approval-ui', 'task-panel']);
    expect(facts.tasks).toEqual([expect.objectContaining({ id: 'claude-shell-bash_1', pid: null, state: 'running', origin: 'claude', lease_expires_at: null })]);
    const rules = JSON.parse(new TextDecoder().decode(await fixture.store.readArtifact(sessionId, facts.permission.rules_ref))) as { rules: string[]; mode: string };
    expect(rules).toMatchObject({ mode: 'bypassPermissions', rules: ['deny:Bash(rm:*)', 'grant:Bash(npm test)'] });

    const manifest = buildManifest({ handoffId: 'h1', session, records: await fixture.store.readMessages(sessionId), workspace, facts, client: { name: 't', version: '0' } });
    expect(manifest).toMatchObject({ capabilities_required: facts.capabilities, background_tasks: facts.tasks, permission_state: facts.permission });
    // Gathered again with nothing changed: the manifest still tells the truth (a re-offer may reuse it).
    const again = await gatherHandoffFacts(fixture.store, await fixture.store.getSession(sessionId), workspace);
    expect(factsMatch(manifest, again)).toBe(true);
    // The approval is decided: another manifest is needed.
    await log.append({ type: 'decision', requestId: 'r1', sessionId, decision: 'deny', by: 'user', reason: null, confirmedHighRisk: false, grantId: null, decidedAt: '2026-11-30T10:03:00.000Z' });
    const decided = await gatherHandoffFacts(fixture.store, await fixture.store.getSession(sessionId), workspace);
    expect(decided.capabilities).toEqual(['conversation', 'task-panel']);
    expect(factsMatch(manifest, decided)).toBe(false);
  });

  it('a session with no approvals log has no pending request and no grant; a log that cannot be read is reported, not taken as none', async () => {
    const { sessionId } = await fixture.landed(2);
    expect(await readApprovalFacts(fixture.store, sessionId)).toEqual({ pending: 0, activeGrants: [] });
    // A directory where the log should be: not "no log", so the reader runs and names the file.
    await mkdir(join(fixture.store.sessionDir(sessionId), APPROVALS_FILE));
    await expect(readApprovalFacts(fixture.store, sessionId)).rejects.toThrow(APPROVALS_FILE);
  });

  it('a change git status sees but the diff missed still needs the diff viewer (same-size edit within a second of the commit)', () => {
    const git = { root: '/w', gitDir: '/w/.git', commonDir: '/w/.git', remote: null, remotes: [], branch: 'main', upstream: null, head: 'a'.repeat(40), detached: false, worktree: false, submodules: [], patch: null, diffSha256: null };
    expect(changedPaths({ cwd: '/w', git: { ...git, files: [], dirtyFiles: ['app.js'], untrackedFiles: ['new.ts'] } } as never)).toEqual(['app.js', 'new.ts']);
    expect(changedPaths({ cwd: '/w', git: null })).toEqual([]);
  });
});
