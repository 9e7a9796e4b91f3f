import { execFile, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTaskService, type TaskService } from '../../core/tasks/task-service.js';
import { removeDir, startMethodsEndpoint, tempDataDir, type MethodsEndpoint } from '../../core/tasks/test-support/endpoint.js';

/**
 * The two-terminal scenario with the real CLI in real processes: terminal A registers a task,
 * an agent process completes it, terminal B reads the result; then the failure cases.
 */
const TASK_CLI = join(import.meta.dirname, '..', 'run.ts');
let dataDir: string;
let service: TaskService;
let host: MethodsEndpoint;

interface Run {
  code: number | null;
  json: Record<string, unknown>;
  stderr: string;
}

function baton(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', TASK_CLI, ...args], { env: { ...process.env, BATON_HOME: dataDir, XDG_RUNTIME_DIR: '', ...env } }, (error, stdout, stderr) => {
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
      } catch {
        json = { unparsed: stdout };
      }
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, json, stderr });
    });
  });
}

beforeEach(async () => {
  dataDir = await tempDataDir('baton-cli-task-');
  service = createTaskService({ dataDir, sweepIntervalMs: 0 });
  host = await startMethodsEndpoint(dataDir, service.methods);
});
afterEach(async () => {
  await host.dispose();
  await service.close();
  await removeDir(dataDir);
});

describe('baton task (two terminals and an agent, real processes)', () => {
  it('A registers, the agent completes, B reads the result once; a retry gets the same receipt', async () => {
    const a = await baton(['task', 'register', '--id', 'build-1', '--kind', 'build', '--command', 'make all', '--ttl', '60000', '--json']);
    expect(a).toMatchObject({ code: 0, json: { ok: true, command: 'task register', taskId: 'build-1', epoch: 1, duplicate: false } });
    // The agent is a separate process; it heartbeats and completes through the same CLI.
    const beat = await baton(['task', 'heartbeat', 'build-1', '--epoch', '1', '--json']);
    expect(beat).toMatchObject({ code: 0, json: { ok: true, stop: false } });
    const done = await baton(['task', 'complete', 'build-1', '--epoch', '1', '--exit-code', '0', '--result', '{"artifact":"dist/app"}', '--json']);
    expect(done).toMatchObject({ code: 0, json: { ok: true, state: 'completed' } });
    const b = await baton(['task', 'result', 'build-1', '--client', 'terminal-b', '--json']);
    expect(b).toMatchObject({ code: 0, json: { ok: true, firstDelivery: true, deliveredTo: 'terminal-b', outcome: { exitCode: 0, result: { artifact: 'dist/app' } } } });
    const again = await baton(['task', 'result', 'build-1', '--client', 'terminal-b', '--json']);
    expect(again.json).toMatchObject({ ok: true, firstDelivery: false, receipt: b.json.receipt });
    const list = await baton(['task', 'list', '--json']);
    expect(list.json).toMatchObject({ ok: true, tasks: [{ state: 'completed', record: { id: 'build-1' } }] });
  });

  it('delete the state: B reports a failure (exit 1, ok:false), not an empty success', async () => {
    await baton(['task', 'register', '--id', 'gone', '--command', 'sleep 1', '--json']);
    await baton(['task', 'complete', 'gone', '--epoch', '1', '--exit-code', '0', '--json']);
    await rm(join(dataDir, 'tasks', 'gone.json'));
    const b = await baton(['task', 'result', 'gone', '--client', 'terminal-b', '--json']);
    expect(b).toMatchObject({ code: 1, json: { ok: false, code: 'NOT_FOUND' } });
    expect(String(b.json.message)).toContain('gone.json');
  });

  it('two agents complete the same revision at once: one CONFLICT, the winner is kept', async () => {
    await baton(['task', 'register', '--id', 'race', '--command', 'make', '--json']);
    const [x, y] = await Promise.all([
      baton(['task', 'complete', 'race', '--epoch', '1', '--revision', '0', '--result', '"x"', '--json']),
      baton(['task', 'complete', 'race', '--epoch', '1', '--revision', '0', '--result', '"y"', '--json']),
    ]);
    expect([x.code, y.code].sort()).toEqual([0, 1]);
    const loser = x.code === 0 ? y : x;
    expect(loser.json).toMatchObject({ ok: false, code: 'CONFLICT' });
    expect((await service.get('race')).record.outcome?.result).toBe(x.code === 0 ? 'x' : 'y');
  });

  it('an orphaned task: the heartbeat exits 3 (stop), so a shell loop ends', async () => {
    await baton(['task', 'register', '--id', 'orphan', '--command', 'serve', '--ttl', '300', '--json']);
    await new Promise((r) => setTimeout(r, 400));
    const beat = await baton(['task', 'heartbeat', 'orphan', '--epoch', '1', '--json']);
    expect(beat).toMatchObject({ code: 3, json: { ok: false, code: 'STALE_EPOCH', stop: true } });
  });

  it('a shell agent loop heartbeats until Baton says stop', async () => {
    await baton(['task', 'register', '--id', 'loop', '--command', 'watch', '--ttl', '60000', '--json']);
    const script = `n=0; while node --import tsx ${TASK_CLI} task heartbeat loop --epoch 1 >/dev/null; do n=$((n+1)); [ $n -ge 50 ] && exit 9; done; echo "stopped after $n"`;
    const shell = spawn('sh', ['-c', script], { env: { ...process.env, BATON_HOME: dataDir, XDG_RUNTIME_DIR: '' } });
    let out = '';
    shell.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise((r) => setTimeout(r, 1_500));
    const client = await host.connect();
    await client.request('task.complete', { id: 'loop', epoch: 1, status: 'failed', exitCode: 1, reason: 'stopped by test' });
    const code = await new Promise<number | null>((resolve) => shell.on('exit', resolve));
    expect(code).toBe(0);
    expect(out).toMatch(/stopped after \d+/);
  });

  it('no Baton running: a clear failure, exit 1', async () => {
    await host.dispose();
    const r = await baton(['task', 'list', '--json']);
    expect(r).toMatchObject({ code: 1, json: { ok: false, code: 'NO_TARGET' } });
  });

  it('bad arguments are usage errors (exit 2)', async () => {
    const r = await baton(['task', 'heartbeat', 'x', '--epoch', 'abc', '--json']);
    expect(r).toMatchObject({ code: 2, json: { ok: false, code: 'BAD_ARGUMENT' } });
  });
});
