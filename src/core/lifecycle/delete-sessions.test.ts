import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApprovalService } from '../approvals/approval-service.js';
import { conversation } from '../handoff/test-support/handoff-fixture.js';
import { createTaskService } from '../tasks/task-service.js';
import { deleteSessions, planDelete } from './delete-sessions.js';
import { twoMachines, type TwoMachines } from './test-support/two-machines.js';

let m: TwoMachines;
beforeEach(async () => {
  m = await twoMachines();
});
afterEach(async () => {
  await m.dispose();
});

const newSession = async (title: string, source: Record<string, unknown> = { tool: 'baton' }) =>
  (await m.a.store.createSession({ cwd: '/w', gitRoot: null, branch: null, title, source: source as { tool: 'baton' }, holder: 'terminal' }, conversation(6))).id;
const ctx = { signal: new AbortController().signal } as never;

describe('baton delete', () => {
  it('names what goes, then deletes several sessions; a missing id is reported, the others still go', async () => {
    const one = await newSession('one');
    const two = await newSession('two');
    await m.a.store.archive(two);
    const plan = await planDelete(m.a.store, m.a.dataDir, two);
    expect(plan).toMatchObject({ sessionId: two, title: 'two', state: 'archived', messageCount: 6, blockers: [] });
    expect(plan.bytes).toBeGreaterThan(500);
    const outcome = await deleteSessions(m.a.store, m.a.dataDir, [one, 'no-such-id', two], { force: false });
    expect(outcome.deleted.map((p) => p.sessionId)).toEqual([one, two]);
    expect(outcome.refused).toEqual([{ sessionId: 'no-such-id', code: 'NOT_FOUND', message: 'No session no-such-id.' }]);
    expect(await m.a.store.list({ includeArchived: true })).toEqual([]);
  });

  it('refuses a session with a running task or a pending approval unless forced', async () => {
    const busy = await newSession('busy');
    const tasks = createTaskService({ dataDir: m.a.dataDir, sweepIntervalMs: 0 });
    const registered = await tasks.methods['task.register']!({ id: '1', method: 'task.register', params: { id: 'dev', sessionId: busy, kind: 'dev-server', command: 'npm run dev', recoverable: false, leaseTtlMs: 60_000 } }, ctx);
    expect(registered).toMatchObject({ ok: true });
    const approvals = createApprovalService({ dataDir: m.a.dataDir, home: '/home/u', sessionDir: (id) => m.a.store.sessionDir(id), store: m.a.store });
    const waiting = approvals.methods['approval.request']!({ id: '2', method: 'approval.request', params: { requestId: 'r1', sessionId: busy, tool: 'Bash', input: { command: 'rm -rf build' }, cwd: '/w' } }, ctx);
    for (let i = 0; i < 200 && approvals.listPending().length === 0; i++) await new Promise((r) => setTimeout(r, 10));

    const plan = await planDelete(m.a.store, m.a.dataDir, busy);
    expect(plan.blockers).toEqual(['task dev (npm run dev) is running', '1 approval request pending']);
    const refused = await deleteSessions(m.a.store, m.a.dataDir, [busy], { force: false });
    expect(refused.refused[0]).toMatchObject({ sessionId: busy, code: 'BUSY' });
    expect(refused.refused[0]!.message).toContain('--force');
    expect((await m.a.store.getSession(busy)).id).toBe(busy);

    await approvals.close();
    await waiting;
    const forced = await deleteSessions(m.a.store, m.a.dataDir, [busy], { force: true });
    expect(forced.deleted.map((p) => p.sessionId)).toEqual([busy]);
    await tasks.close?.();
  });

  it('never touches the source file of an imported session (~/.claude, ~/.codex)', async () => {
    const claudeDir = join(m.root, 'home', '.claude', 'projects', 'p');
    mkdirSync(claudeDir, { recursive: true });
    const log = join(claudeDir, 'abc.jsonl');
    writeFileSync(log, '{"type":"user"}\n');
    const imported = await newSession('imported', { tool: 'claude', sessionId: 'abc', path: log });
    await deleteSessions(m.a.store, m.a.dataDir, [imported], { force: false });
    expect(existsSync(log)).toBe(true);
    expect(readFileSync(log, 'utf8')).toBe('{"type":"user"}\n');
  });
});
