import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApprovalService, type ApprovalService } from './approval-service.js';
import { fromClaudeHook, fromGeneric, type ClaudeHookInput } from './claude-hook.js';
import { removeDir, startMethodsEndpoint, tempDataDir, until, type MethodsEndpoint } from '../tasks/test-support/endpoint.js';

/**
 * Issue #10: a decision is never replayed across requests. Only a caller repeating a request's
 * own id hears its decision again, only until that request's expiresAt, and a high-risk approval
 * answers one call. A "restart" is a second service over the same data dir and a new socket.
 */
const SESSION = '9f2c1a4e-6b7d-4e8f-9a0b-1c2d3e4f5a6b';
const ask = (requestId: string, command: string, extra: Record<string, unknown> = {}) => ({ requestId, sessionId: SESSION, tool: 'Bash', input: { command }, cwd: '/work/proj', ...extra });
const logLines = (dataDir: string) => readFileSync(join(dataDir, 'sessions', SESSION, 'approvals.jsonl'), 'utf8').trim().split('\n');

let dataDir: string;
let service: ApprovalService;
let host: MethodsEndpoint;

async function start(): Promise<void> {
  service = createApprovalService({ dataDir, home: '/home/u' });
  host = await startMethodsEndpoint(dataDir, service.methods);
}
async function restart(): Promise<void> {
  await host.dispose();
  await service.close();
  await start();
}
/** Sends a request and waits until it is pending, so a decision can be made; `answer` settles with the agent's answer. */
async function pending(id: string, params: object) {
  const client = await host.connect();
  const answer = client.request('approval.request', params);
  await until(() => service.listPending().some((v) => v.request.requestId === id), `request ${id} pending`);
  return { answer };
}

beforeEach(async () => {
  dataDir = await tempDataDir('baton-replay-');
  await start();
});
afterEach(async () => {
  vi.useRealTimers();
  await host.dispose();
  await service.close();
  await removeDir(dataDir);
});

describe('replay of decisions', () => {
  it('replay: an approved id is answered again only until its expiresAt, across a host restart', async () => {
    // 60 s to live: the decision and two replays around a restart fit in it on any machine.
    const first = await pending('toolu_R1', ask('toolu_R1', 'npm test', { timeoutMs: 60_000 }));
    await service.decide('toolu_R1', { decision: 'approve' });
    expect(await first.answer).toMatchObject({ ok: true, decision: 'approve', replay: false });
    const expiresAt = Date.parse((await service.history(SESSION))[0]!.request.expiresAt);
    const client = await host.connect();
    expect(await client.request('approval.request', ask('toolu_R1', 'npm test'))).toMatchObject({ ok: true, decision: 'approve', by: 'user', replay: true });

    await restart();
    const after = await host.connect();
    expect(Date.now()).toBeLessThan(expiresAt);
    expect(await after.request('approval.request', ask('toolu_R1', 'npm test'))).toMatchObject({ ok: true, decision: 'approve', replay: true });

    // Past expiresAt without waiting for it: the service reads Date.now(), and only Date is faked.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(expiresAt + 1);
    const late = await after.request('approval.request', ask('toolu_R1', 'npm test'));
    expect(late).toMatchObject({ ok: false, code: 'EXPIRED' });
    expect(String(late.message)).toContain(new Date(expiresAt).toISOString());
    await restart();
    expect(await (await host.connect()).request('approval.request', ask('toolu_R1', 'npm test'))).toMatchObject({ ok: false, code: 'EXPIRED' });
    expect(logLines(dataDir)).toHaveLength(2); // one request, one decision: replays and refusals write nothing
    expect(service.listPending()).toEqual([]);
  });

  it('replay: a high-risk approval answers its one call; the same id again is refused, before and after a restart', async () => {
    const first = await pending('toolu_H1', ask('toolu_H1', 'git push --force origin main'));
    await service.decide('toolu_H1', { decision: 'approve', confirmHighRisk: true });
    expect(await first.answer).toMatchObject({ ok: true, decision: 'approve', replay: false });
    const client = await host.connect();
    expect(await client.request('approval.request', ask('toolu_H1', 'git push --force origin main'))).toMatchObject({ ok: false, code: 'NOT_REUSABLE' });
    await restart();
    expect(await (await host.connect()).request('approval.request', ask('toolu_H1', 'git push --force origin main'))).toMatchObject({ ok: false, code: 'NOT_REUSABLE' });
    // A deny is safe to repeat: a high-risk request that was denied is denied again.
    const denied = await pending('toolu_H2', ask('toolu_H2', 'git push --force origin main'));
    await service.decide('toolu_H2', { decision: 'deny' });
    await denied.answer;
    expect(await (await host.connect()).request('approval.request', ask('toolu_H2', 'git push --force origin main'))).toMatchObject({ ok: true, decision: 'deny', replay: true });
  });

  it('replay: two callers waiting on one high-risk id, only the first hears the approval', async () => {
    const first = await pending('toolu_H3', ask('toolu_H3', 'rm -rf /'));
    const second = (await host.connect()).request('approval.request', ask('toolu_H3', 'rm -rf /'));
    await new Promise((r) => setTimeout(r, 50));
    await service.decide('toolu_H3', { decision: 'approve', confirmHighRisk: true });
    expect(await first.answer).toMatchObject({ ok: true, decision: 'approve' });
    expect(await second).toMatchObject({ ok: false, code: 'NOT_REUSABLE' });
  });

  it('replay: cross-client, a Claude hook approval without tool_use_id never answers the same call from --json or the hook again', async () => {
    const hook: ClaudeHookInput = { session_id: SESSION, cwd: '/work/proj', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git push --force origin main' } };
    const fromHook = fromClaudeHook(hook);
    const first = await pending(fromHook.requestId, fromHook);
    await service.decide(fromHook.requestId, { decision: 'approve', confirmHighRisk: true });
    expect(await first.answer).toMatchObject({ ok: true, decision: 'approve' });

    // The same call from another client, and from the hook again: new requests, asked again.
    const json = fromGeneric({ tool: 'Bash', input: { command: 'git push --force origin main' }, cwd: '/work/proj', sessionId: SESSION });
    const again = fromClaudeHook(hook);
    expect(new Set([fromHook.requestId, json.requestId, again.requestId]).size).toBe(3);
    expect(new Set([fromHook.groupKey, json.groupKey, again.groupKey]).size).toBe(1); // grouped for display only
    const jsonAnswer = await pending(json.requestId, json);
    const hookAnswer = await pending(again.requestId, again);
    expect(service.listPending().map((v) => v.request.groupKey)).toEqual([json.groupKey, json.groupKey]);
    await service.decide(json.requestId, { decision: 'deny' });
    await service.decide(again.requestId, { decision: 'deny' });
    expect(await jsonAnswer.answer).toMatchObject({ decision: 'deny', replay: false });
    expect(await hookAnswer.answer).toMatchObject({ decision: 'deny', replay: false });
  });

  it('replay: cross-client, an explicit id repeated from --json after the hook gets the decision only until expiry', async () => {
    const hook: ClaudeHookInput = { session_id: SESSION, cwd: '/work/proj', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm run lint' }, tool_use_id: 'toolu_X1' };
    const fromHook = { ...fromClaudeHook(hook), timeoutMs: 60_000 }; // the decision and the replay fit in it on any machine
    const first = await pending('toolu_X1', fromHook);
    await service.decide('toolu_X1', { decision: 'approve' });
    await first.answer;
    const json = fromGeneric({ tool: 'Bash', input: { command: 'npm run lint' }, cwd: '/work/proj', sessionId: SESSION, requestId: 'toolu_X1', client: 'codex' });
    const client = await host.connect();
    expect(await client.request('approval.request', json)).toMatchObject({ ok: true, decision: 'approve', replay: true });
    const [view] = await service.history(SESSION);
    // Past expiresAt without waiting for it: only Date is faked.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(view!.request.expiresAt) + 1);
    expect(await client.request('approval.request', json)).toMatchObject({ ok: false, code: 'EXPIRED' });
  });
});
