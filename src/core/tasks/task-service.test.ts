import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManifestTask } from '../../shared/manifest.js';
import type { TaskRecord } from '../../shared/tasks.js';
import { toManifestTasks } from './manifest-tasks.js';
import { createTaskService, TASK_LOG_VIEW_MAX_BYTES, type TaskService } from './task-service.js';
import { removeDir, startMethodsEndpoint, tempDataDir, until, type MethodsEndpoint } from './test-support/endpoint.js';

const HERE = import.meta.dirname;
let dataDir: string;
let service: TaskService;
let host: MethodsEndpoint;
const children: ChildProcess[] = [];

const reg = (id: string, extra: Record<string, unknown> = {}) => ({ id, kind: 'dev-server', command: 'npm run dev', recoverable: false, leaseTtlMs: 60_000, ...extra });
const fileOf = (id: string) => join(dataDir, 'tasks', `${id}.json`);
const onDisk = (id: string) => JSON.parse(readFileSync(fileOf(id), 'utf8')) as TaskRecord;

function sleeper(): ChildProcess {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  children.push(child);
  return child;
}

function tsChild(script: string, args: string[]): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', join(HERE, 'test-support', script), ...args], {
    env: { ...process.env, BATON_HOME: dataDir, XDG_RUNTIME_DIR: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  children.push(child);
  return Object.assign(child, { output: () => out });
}

const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });

beforeEach(async () => {
  dataDir = await tempDataDir('baton-task-');
  service = createTaskService({ dataDir, sweepIntervalMs: 0 });
  host = await startMethodsEndpoint(dataDir, service.methods);
});
afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  await host.dispose();
  await service.close();
  await removeDir(dataDir);
});

describe('registration (lost task)', () => {
  it('acknowledges only what is on disk; a retry with the same id is the same task', async () => {
    const client = await host.connect();
    const first = await client.request('task.register', reg('t1'));
    expect(first).toMatchObject({ ok: true, duplicate: false, epoch: 1, heartbeatEveryMs: 20_000 });
    expect(onDisk('t1')).toMatchObject({ id: 't1', state: 'running', revision: 0 });
    expect(await client.request('task.register', reg('t1'))).toMatchObject({ ok: true, duplicate: true, epoch: 1 });
    expect(await client.request('task.register', reg('t1', { command: 'other' }))).toMatchObject({ ok: false, code: 'CONFLICT' });
    expect(await service.list()).toHaveLength(1);
  });

  it('when the write cannot be made durable, nothing is acknowledged', async () => {
    await writeFile(join(dataDir, 'tasks'), 'a file where the tasks directory should be');
    const client = await host.connect();
    const answer = await client.request('task.register', reg('t-io'));
    expect(answer).toMatchObject({ ok: false, code: 'INTERNAL', message: expect.stringContaining('tasks') });
    await rm(join(dataDir, 'tasks'));
    expect(await service.list()).toEqual([]);
  });

  it('a client killed before the ack retries and ends up with exactly one task', async () => {
    const outcomes: boolean[] = [];
    for (let i = 0; i < 3; i++) {
      const id = `lost-${i}`;
      const dying = tsChild('register-and-die.ts', [id]);
      expect((await exited(dying)).signal).toBe('SIGKILL');
      const client = await host.connect();
      const retry = await client.request('task.register', { id, kind: 'build', command: 'make all', recoverable: false, leaseTtlMs: 60_000 });
      expect(retry).toMatchObject({ ok: true, epoch: 1 });
      outcomes.push(retry.duplicate === true);
    }
    // Either the first attempt landed (duplicate) or it did not (created now): one task each way.
    console.log(`killed-before-ack: first attempt had landed in ${outcomes.filter(Boolean).length} of 3 runs`);
    expect((await service.list()).map((v) => v.record.id).sort()).toEqual(['lost-0', 'lost-1', 'lost-2']);
  });
});

describe('concurrent writers (no lost update)', () => {
  it('two clients complete the same revision at once: one wins, the other gets CONFLICT', async () => {
    const [a, b] = [await host.connect(), await host.connect()];
    await a.request('task.register', reg('race'));
    const revision = onDisk('race').revision;
    const answers = await Promise.all([
      a.request('task.complete', { id: 'race', epoch: 1, status: 'completed', exitCode: 0, result: { by: 'a' }, expectedRevision: revision }),
      b.request('task.complete', { id: 'race', epoch: 1, status: 'failed', exitCode: 2, result: { by: 'b' }, expectedRevision: revision }),
    ]);
    expect(answers.filter((x) => x.ok)).toHaveLength(1);
    expect(answers.filter((x) => !x.ok)).toMatchObject([{ code: 'CONFLICT' }]);
    const winner = answers[0]!.ok ? 'a' : 'b';
    expect(onDisk('race').outcome?.result).toEqual({ by: winner });
    expect(onDisk('race').revision).toBe(revision + 1);
  });

  it('without a revision, a second different outcome is refused and the first one stands; the same one is idempotent', async () => {
    const client = await host.connect();
    await client.request('task.register', reg('twice'));
    const done = { id: 'twice', epoch: 1, status: 'completed', exitCode: 0, result: 1 };
    expect(await client.request('task.complete', done)).toMatchObject({ ok: true, duplicate: false });
    expect(await client.request('task.complete', done)).toMatchObject({ ok: true, duplicate: true });
    expect(await client.request('task.complete', { ...done, result: 2 })).toMatchObject({ ok: false, code: 'CONFLICT' });
    expect(onDisk('twice').outcome?.result).toBe(1);
  });

  it('many heartbeats at once from several clients all land, in order (revision counts each)', async () => {
    const clients = await Promise.all([1, 2, 3, 4].map(() => host.connect()));
    await clients[0]!.request('task.register', reg('beats'));
    const answers = await Promise.all(clients.flatMap((c) => [1, 2, 3, 4, 5].map(() => c.request('task.heartbeat', { id: 'beats', epoch: 1 }))));
    expect(answers.every((x) => x.ok)).toBe(true);
    expect(onDisk('beats').revision).toBe(20);
  });
});

describe('results (duplicate result)', () => {
  it('delivered once with a receipt; a re-delivery returns the same receipt and says so', async () => {
    const [a, b] = [await host.connect(), await host.connect()];
    await a.request('task.register', reg('res'));
    expect(await b.request('task.result', { id: 'res', clientId: 'term-b' })).toMatchObject({ ok: false, code: 'NOT_FINISHED', state: 'running' });
    await a.request('task.complete', { id: 'res', epoch: 1, status: 'completed', exitCode: 0, lastLogLines: ['built'], result: { url: 'http://x' } });
    const first = await b.request('task.result', { id: 'res', clientId: 'term-b' });
    expect(first).toMatchObject({ ok: true, firstDelivery: true, deliveredTo: 'term-b', outcome: { exitCode: 0, result: { url: 'http://x' } } });
    const again = await b.request('task.result', { id: 'res', clientId: 'term-b' });
    expect(again).toMatchObject({ ok: true, firstDelivery: false, receipt: first.receipt, deliveredTo: 'term-b' });
    const other = await a.request('task.result', { id: 'res', clientId: 'term-a' });
    expect(other).toMatchObject({ firstDelivery: false, receipt: first.receipt, deliveredTo: 'term-b' });
    expect(onDisk('res').delivery).toMatchObject({ receipt: first.receipt, clientId: 'term-b' });
  });

  it('a deleted or damaged state is a failure, never an empty success', async () => {
    const client = await host.connect();
    await client.request('task.register', reg('gone'));
    await client.request('task.complete', { id: 'gone', epoch: 1, status: 'completed', exitCode: 0 });
    await rm(fileOf('gone'));
    expect(await client.request('task.result', { id: 'gone', clientId: 'b' })).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(await client.request('task.heartbeat', { id: 'gone', epoch: 1 })).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(existsSync(fileOf('gone'))).toBe(false); // a write never resurrects a deleted task
    await client.request('task.register', reg('torn'));
    await writeFile(fileOf('torn'), '{"id": "torn", "sta');
    expect(await client.request('task.result', { id: 'torn', clientId: 'b' })).toMatchObject({ ok: false, code: 'DAMAGED' });
  });
});

describe('leases (orphaned agent, stale state)', () => {
  it('no heartbeat: stale, then orphaned (shown before any sweep), then fenced: old-epoch writes are refused with stop', async () => {
    // The service reads the clock with Date.now(): only Date is faked (the socket and the fsyncs
    // stay real), so a loaded machine cannot jump past the stale window (2/3 TTL … TTL).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const client = await host.connect();
      const registeredAt = Date.now();
      await client.request('task.register', reg('orph', { leaseTtlMs: 600 }));
      vi.setSystemTime(registeredAt + 450);
      expect((await service.get('orph')).state).toBe('stale');
      vi.setSystemTime(registeredAt + 700);
      expect((await service.get('orph')).state).toBe('orphaned');
      expect(await service.sweep()).toEqual(['orph']);
      expect(onDisk('orph')).toMatchObject({ state: 'orphaned', epoch: 2 });
      expect(await client.request('task.heartbeat', { id: 'orph', epoch: 1 })).toMatchObject({ ok: false, code: 'STALE_EPOCH', stop: true });
      expect(await client.request('task.complete', { id: 'orph', epoch: 1, status: 'completed', exitCode: 0 })).toMatchObject({ ok: false, code: 'STALE_EPOCH', stop: true });
      expect(onDisk('orph').outcome).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a real agent process paused past its lease is told to stop at its next heartbeat, and stops', async () => {
    // A 6 s lease: 'running' must hold for 4 s after a beat (2/3 TTL), well past a starved child's
    // or a late fsync's delay; the pause then has to outlast the whole lease, so it is polled for.
    const agent = tsChild('agent.ts', ['agent', 'register', '6000']);
    await until(() => agent.output().includes('beat 2'), 'two heartbeats', 30_000).catch((e: Error) => {
      throw new Error(`${e.message}; agent said: ${agent.output()}`);
    });
    expect((await service.get('agent')).state).toBe('running');
    agent.kill('SIGSTOP');
    await until(async () => (await service.get('agent')).state === 'orphaned', 'the lease to expire', 30_000);
    agent.kill('SIGCONT');
    const end = await exited(agent);
    expect(end.code).toBe(3);
    expect(agent.output()).toContain('stop STALE_EPOCH');
    expect(onDisk('agent')).toMatchObject({ state: 'orphaned', epoch: 2 });
  }, 90_000);

  it('the sweep timer records orphans on its own and tells the UI', async () => {
    const swept = createTaskService({ dataDir, sweepIntervalMs: 50 });
    const seen: string[] = [];
    swept.onChange((e) => seen.push(`${e.view.record.id}:${e.view.state}`));
    const client = await host.connect();
    await client.request('task.register', reg('sw', { leaseTtlMs: 300 }));
    await until(() => seen.includes('sw:orphaned'), 'the sweep');
    await swept.close();
  });

  it('stale state: a client holding an old revision learns the task is done instead of overwriting it', async () => {
    const [terminal, agent] = [await host.connect(), await host.connect()];
    await terminal.request('task.register', reg('view'));
    const seen = await terminal.request('task.get', { id: 'view' });
    const revision = (seen.task as { record: TaskRecord }).record.revision;
    expect((seen.task as { state: string }).state).toBe('running');
    await agent.request('task.complete', { id: 'view', epoch: 1, status: 'completed', exitCode: 0 });
    const write = await terminal.request('task.heartbeat', { id: 'view', epoch: 1, expectedRevision: revision });
    expect(write).toMatchObject({ ok: false, code: 'CONFLICT', state: 'completed' });
    const list = await terminal.request('task.list', {});
    expect((list.tasks as Array<{ state: string }>).map((t) => t.state)).toEqual(['completed']);
  });

  it('a task whose process died is never shown as running', async () => {
    const child = sleeper();
    const client = await host.connect();
    await client.request('task.register', reg('dead', { pid: child.pid }));
    expect((await service.get('dead')).processAlive).toBe(true);
    child.kill('SIGKILL');
    await exited(child);
    const view = await service.get('dead');
    expect(view).toMatchObject({ state: 'stale', processAlive: false });
  });
});

describe('terminate', () => {
  it.skipIf(process.platform !== 'linux')('signals only a confirmed, still-matching process, then fences the task', async () => {
    const child = sleeper();
    const client = await host.connect();
    await client.request('task.register', reg('term', { pid: child.pid }));
    // @ts-expect-error the confirmation is required by the type, and by the code at run time
    await expect(service.terminate('term', {})).rejects.toMatchObject({ code: 'CONFIRMATION_REQUIRED' });
    const view = await service.terminate('term', { confirmed: true });
    expect((await exited(child)).signal).toBe('SIGTERM');
    expect(view.record).toMatchObject({ state: 'failed', epoch: 2, outcome: { reason: expect.stringContaining('terminated') } });
    expect(await client.request('task.heartbeat', { id: 'term', epoch: 1 })).toMatchObject({ ok: false, code: 'FINISHED', stop: true });
  });

  it.skipIf(process.platform !== 'linux')('refuses when the pid now belongs to another process (start time differs)', async () => {
    const child = sleeper();
    const client = await host.connect();
    await client.request('task.register', reg('reuse', { pid: child.pid }));
    const record = onDisk('reuse');
    await writeFile(fileOf('reuse'), JSON.stringify({ ...record, pidStartTime: 'ticks:1' })); // as if the pid was reused
    await expect(service.terminate('reuse', { confirmed: true })).rejects.toMatchObject({ code: 'PID_MISMATCH' });
    expect(child.exitCode).toBeNull();
    expect(child.signalCode).toBeNull();
  });
});

describe('handoff', () => {
  it('keeps every task with a recommendation; unrecoverable ones get terminate/restart', async () => {
    const client = await host.connect();
    await client.request('task.register', reg('keep', { sessionId: 's1', recoverable: true }));
    await client.request('task.register', reg('local', { sessionId: 's1', recoverable: false }));
    await client.request('task.register', reg('lost', { sessionId: 's1', leaseTtlMs: 300 }));
    await client.request('task.register', reg('done', { sessionId: 's1' }));
    await client.request('task.register', reg('elsewhere', { sessionId: 's2' }));
    await client.request('task.complete', { id: 'done', epoch: 1, status: 'completed', exitCode: 0 });
    await new Promise((r) => setTimeout(r, 350));
    const tasks = await service.forHandoff('s1');
    const byId = Object.fromEntries(tasks.map((t) => [t.view.record.id, t.recommendation.action]));
    expect(byId).toEqual({ keep: 'keep', local: 'terminate', lost: 'restart', done: 'keep' });
    expect(tasks.every((t) => t.recommendation.prompt.includes(t.view.record.id))).toBe(true);
    const manifest = toManifestTasks(tasks.map((t) => t.view));
    expect(manifest.map((m) => m.id).sort()).toEqual(['keep', 'local', 'lost']);
    for (const m of manifest) expect(ManifestTask.safeParse(m).success).toBe(true);
    expect(JSON.parse(await readFile(fileOf('local'), 'utf8')).state).toBe('running'); // nothing was dropped or changed
  });
});

describe('task actions of the UI', () => {
  it('clear finished deletes completed and failed tasks only, and only their files', async () => {
    const client = await host.connect();
    for (const id of ['ok', 'bad', 'live', 'lost']) await client.request('task.register', reg(id, id === 'lost' ? { leaseTtlMs: 300 } : {}));
    await client.request('task.complete', { id: 'ok', epoch: 1, status: 'completed', exitCode: 0 });
    await client.request('task.complete', { id: 'bad', epoch: 1, status: 'failed', exitCode: 2 });
    await new Promise((r) => setTimeout(r, 350));
    await service.sweep();
    expect((await service.clearFinished()).sort()).toEqual(['bad', 'ok']);
    expect(existsSync(fileOf('ok'))).toBe(false);
    expect(existsSync(fileOf('bad'))).toBe(false);
    expect((await service.list()).map((v) => [v.record.id, v.state]).sort()).toEqual([
      ['live', 'running'],
      ['lost', 'orphaned'],
    ]);
    expect(await service.clearFinished()).toEqual([]);
  });

  it('open log answers the end of the log, bounded; a task without a log or with a missing one says so', async () => {
    const log = join(dataDir, 'dev.log');
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join('\n');
    await writeFile(log, `${lines}\nready on http://localhost:5173\n`);
    const client = await host.connect();
    await client.request('task.register', reg('logged', { logPath: log }));
    await client.request('task.register', reg('silent'));
    await client.request('task.register', reg('gone', { logPath: join(dataDir, 'nowhere.log') }));
    const view = await service.readLog('logged');
    expect(view.bytes).toBe(Buffer.byteLength(`${lines}\nready on http://localhost:5173\n`));
    expect(view.shownBytes).toBe(TASK_LOG_VIEW_MAX_BYTES);
    expect(view.text.endsWith('ready on http://localhost:5173\n')).toBe(true);
    expect(view.path).toBe(log);
    await expect(service.readLog('silent')).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('no log file') });
    await expect(service.readLog('gone')).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('nowhere.log') });
    await expect(service.readLog('no-such-task')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
