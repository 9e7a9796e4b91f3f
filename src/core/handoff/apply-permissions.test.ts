import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Manifest } from '../../shared/manifest.js';
import { BROWSER_HOST_CAPABILITIES } from '../host/capabilities.js';
import { startHostServices, type HostServices } from '../host/host-services.js';
import { permits, policyFromState } from '../policy/narrow.js';
import type { Action } from '../policy/rules.js';
import { openStore } from '../store/index.js';
import type { SessionStore } from '../store/types.js';
import { until } from '../tasks/test-support/endpoint.js';
import { connectEndpoint } from '../transport/client.js';
import { HOST_POLICY_FILE } from './host-policy.js';
import { importAgentSession } from './import-agent-session.js';
import { prepareNarrowing } from './apply-permissions.js';
import { offerSession } from './send.js';

/**
 * "Permissions only narrow, in force": an imported Claude Code session with settings rules and
 * Baton grants is offered over the real socket to a real host; the host narrows before it answers.
 */
const SAMPLE = join(resolve(import.meta.dirname, '../../..'), '..', 'shared', 'fixtures', 'agent-logs', 'claude-code-session.sample.jsonl');
let tmp: string;
let dataDir: string;
let project: string;
let configDir: string;
let host: HostServices;
let store: SessionStore;

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'baton-narrow-'));
  dataDir = join(tmp, 'data');
  project = join(tmp, 'project');
  configDir = join(tmp, 'claude');
  await mkdir(join(project, '.claude'), { recursive: true });
  await mkdir(configDir);
  await writeFile(join(configDir, 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(npm:*)'], deny: ['Bash(npm publish:*)'] } }));
  // The real sample transcript, moved into this project (its mode is bypassPermissions).
  const lines = readFileSync(SAMPLE, 'utf8').split('\n').filter(Boolean).map((l) => JSON.stringify({ ...JSON.parse(l), cwd: project }));
  await writeFile(join(tmp, '4d5611e5-241a-462a-8d15-5122611a9569.jsonl'), `${lines.join('\n')}\n`);
  host = await startHostServices({ dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
  store = await openStore(dataDir);
});
afterEach(async () => {
  await store.close();
  await host.close();
  await rm(tmp, { recursive: true, force: true });
});

/** Approves `command` with "allow for this session" through the real approval socket method. */
async function grant(sessionId: string, requestId: string, command: string): Promise<void> {
  const client = await connectEndpoint({ endpoint: host.endpoint, token: host.token });
  try {
    const answer = client.request('approval.request', { requestId, sessionId, tool: 'Bash', input: { command }, cwd: project });
    await until(() => host.approvals.listPending().some((v) => v.request.requestId === requestId), `request ${requestId}`);
    await host.approvals.decide(requestId, { decision: 'approve', allowForSession: true });
    await answer;
  } finally {
    client.close();
  }
}

const actions = (): Action[] => [
  ...['npm test', 'npm run build', 'npm publish --tag x', 'make deploy', 'make', 'curl x | sh', 'rm -rf /', 'git push'].map((target) => ({ tool: 'Bash', target })),
  { tool: 'Edit', target: join(project, 'a.ts'), path: join(project, 'a.ts') },
  { tool: 'Edit', target: '/etc/passwd', path: '/etc/passwd' },
  { tool: 'Read', target: join(project, 'b.ts'), path: join(project, 'b.ts') },
];

async function offer(sessionId: string) {
  return offerSession(sessionId, { store, endpoint: host.endpoint, token: host.token, timeoutMs: 5_000, launch: false, dryRun: false });
}

describe('permissions only narrow across a handoff (real host, real socket)', () => {
  it('a session-wide grant before the handoff does not widen after it: uncovered grants are revoked, the rest match no more', async () => {
    const { session } = await importAgentSession(store, 'claude', join(tmp, '4d5611e5-241a-462a-8d15-5122611a9569.jsonl'), { CLAUDE_CONFIG_DIR: configDir, HOME: tmp });
    await grant(session.id, 'g-npm', 'npm test');
    await grant(session.id, 'g-make', 'make deploy');
    const before = (await host.approvals.grants.list(session.id)).map((g) => g.rule).sort();
    expect(before).toEqual(['Bash(make deploy)', 'Bash(npm test:*)']); // the policy derives a safe prefix for npm test
    const sourcePolicy = policyFromState({ mode: 'bypassPermissions', rules: [...(await store.getSession(session.id)).permission!.rules, ...before.map((r) => `grant:${r}`)] }, project);

    const outcome = await offer(session.id);
    expect(outcome.category).toBe('accepted');
    const manifest = Manifest.parse(outcome.answer ? JSON.parse(readFileSync(join(store.sessionDir(session.id), 'handoff.json'), 'utf8')) : null);
    expect(manifest.permission_state.mode).toBe('bypassPermissions');
    expect(manifest.permission_state.rules_sha256).toMatch(/^[0-9a-f]{64}$/);

    const after = (await host.approvals.grants.list(session.id)).map((g) => g.rule).sort();
    expect(after).toEqual(['Bash(npm test:*)']);
    const inForce = (await store.getSession(session.id)).permission!.inForce!;
    expect(inForce).toMatchObject({ mode: 'acceptEdits', handoffId: manifest.handoff_id, revokedGrants: ['Bash(make deploy)'] });
    expect(inForce.rules).toEqual(expect.arrayContaining(['allow:Bash(npm:*)', 'deny:Bash(npm publish:*)', 'grant:Bash(npm test:*)']));
    const targetPolicy = policyFromState(inForce, project);
    for (const action of actions()) {
      // Never more than before: whatever runs without asking now ran without asking before.
      if (permits(targetPolicy, action)) expect(permits(sourcePolicy, action), `${action.tool} ${action.target}`).toBe(true);
    }
    expect(permits(sourcePolicy, { tool: 'Bash', target: 'make deploy' })).toBe(true);
    expect(permits(targetPolicy, { tool: 'Bash', target: 'make deploy' })).toBe(false);
    // The approval service itself asks again for the revoked grant's command.
    const client = await connectEndpoint({ endpoint: host.endpoint, token: host.token });
    const again = client.request('approval.request', { requestId: 'g-make-2', sessionId: session.id, tool: 'Bash', input: { command: 'make deploy' }, cwd: project });
    await until(() => host.approvals.listPending().some((v) => v.request.requestId === 'g-make-2'), 'a new question');
    await host.approvals.decide('g-make-2', { decision: 'deny' });
    expect(await again).toMatchObject({ decision: 'deny', by: 'user' });
    client.close();
  });

  it('a host policy.json narrows further (mode and rules); offering again narrows to the same rules', async () => {
    await writeFile(join(dataDir, HOST_POLICY_FILE), JSON.stringify({ mode: 'default', allow: ['Bash(npm test)'], deny: ['Bash(git push:*)'] }));
    const { session } = await importAgentSession(store, 'claude', join(tmp, '4d5611e5-241a-462a-8d15-5122611a9569.jsonl'), { CLAUDE_CONFIG_DIR: configDir, HOME: tmp });
    await grant(session.id, 'g1', 'npm run build');
    expect((await offer(session.id)).category).toBe('accepted');
    const inForce = (await store.getSession(session.id)).permission!.inForce!;
    expect(inForce.mode).toBe('default');
    expect(inForce.rules).toEqual(expect.arrayContaining(['deny:Bash(npm publish:*)', 'deny:Bash(git push:*)']));
    expect(inForce.rules).not.toContain('allow:Bash(npm:*)'); // the host allows only npm test
    expect(inForce.revokedGrants).toEqual(['Bash(npm run build:*)']);
    expect(await host.approvals.grants.list(session.id)).toEqual([]);
    // The revoked grant changed what the session carries: a new handoff, narrowed to the same rules.
    expect((await offer(session.id)).category).toBe('accepted');
    expect((await store.getSession(session.id)).permission!.inForce).toMatchObject({ mode: 'default', rules: inForce.rules, revokedGrants: [] });
  });

  it("reads this host's policy at the take, not while the sender's record is saved: a policy.json tightened in between applies", async () => {
    const { session } = await importAgentSession(store, 'claude', join(tmp, '4d5611e5-241a-462a-8d15-5122611a9569.jsonl'), { CLAUDE_CONFIG_DIR: configDir, HOME: tmp });
    const manifest = { session_id: session.id, handoff_id: 'h-policy-race', permission_state: {} } as unknown as Manifest;
    const take = await prepareNarrowing({ store, dataDir, grants: { narrowTo: async () => [] } }, manifest);
    // The receiver's prepared reads are done; the policy tightens before the record is durable.
    await writeFile(join(dataDir, HOST_POLICY_FILE), JSON.stringify({ mode: 'default', deny: ['Bash(git push:*)'] }));
    const change = await take();
    const inForce = change(await store.getSession(session.id)).permission!.inForce!;
    expect(inForce).toMatchObject({ mode: 'default', handoffId: 'h-policy-race' });
    expect(inForce.rules).toContain('deny:Bash(git push:*)');
  });

  it('an invalid host policy.json refuses the handoff with the file named; the session stays with the terminal', async () => {
    await writeFile(join(dataDir, HOST_POLICY_FILE), JSON.stringify({ mode: 'yolo' }));
    const { session } = await importAgentSession(store, 'claude', join(tmp, '4d5611e5-241a-462a-8d15-5122611a9569.jsonl'), { CLAUDE_CONFIG_DIR: configDir, HOME: tmp });
    const outcome = await offer(session.id);
    expect(outcome.category).toBe('rejected');
    expect(outcome.message).toContain(join(dataDir, HOST_POLICY_FILE));
    expect((await store.getSession(session.id)).holder).toMatchObject({ who: 'terminal', epoch: 1 });
  });
});
