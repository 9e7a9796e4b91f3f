import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionDoc } from '../../shared/session.js';
import { carriedTasksOf, pidAlive, restartCommandOf } from './carried-tasks.js';
import { manifestTasksOf } from './manifest-tasks.js';
import { createTaskService, type TaskService } from './task-service.js';
import { removeDir, startMethodsEndpoint, tempDataDir, type MethodsEndpoint } from './test-support/endpoint.js';

/** The target's task list: real registered tasks over a real socket, real processes killed, imported tasks with no pid. */
let dataDir: string;
let service: TaskService;
let host: MethodsEndpoint;
const children: ChildProcess[] = [];

function sleeper(): ChildProcess {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  children.push(child);
  return child;
}
const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

function session(tasks: SessionDoc['tasks']): SessionDoc {
  return {
    schemaVersion: 1, id: 's1', parentId: null, createdAt: '', updatedAt: '', cwd: '/work/my app', gitRoot: null, branch: null, title: 't',
    source: { tool: 'claude' }, model: null, permission: null, holder: { who: 'desktop', epoch: 2 }, revision: 1, messageCount: 0, archived: false, tasks,
  } as SessionDoc;
}

beforeEach(async () => {
  dataDir = await tempDataDir('baton-carried-');
  service = createTaskService({ dataDir, sweepIntervalMs: 0 });
  host = await startMethodsEndpoint(dataDir, service.methods);
});
afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  await host.dispose();
  await service.close();
  await removeDir(dataDir);
});

describe('carriedTasksOf', () => {
  it('a task registered before the handoff shows with terminate / restart here and the exact command; a dead one is never running', async () => {
    const alive = sleeper();
    const dead = sleeper();
    const client = await host.connect();
    const reg = (id: string, pid: number, extra: Record<string, unknown> = {}) =>
      client.request('task.register', { id, sessionId: 's1', kind: 'dev-server', command: 'npm run dev -- --port 5173', pid, port: 5173, recoverable: false, leaseTtlMs: 60_000, ...extra });
    expect(await reg('dev', alive.pid!)).toMatchObject({ ok: true });
    expect(await reg('gone', dead.pid!, { command: 'npm run watch' })).toMatchObject({ ok: true });
    dead.kill('SIGKILL');
    await exited(dead);
    const imported = [
      { id: 'claude-shell-bash_1', kind: 'background-shell', command: 'python -m http.server', pid: null, state: 'running', origin: 'claude' as const, cwd: '/srv/site', recoverable: false },
      { id: 'claude-shell-bash_2', kind: 'background-shell', command: 'npm run lint', pid: null, state: 'killed', origin: 'claude' as const, recoverable: false },
    ];
    const views = await service.list({ sessionId: 's1' });
    const shown = carriedTasksOf(session(imported), views);
    const byId = Object.fromEntries(shown.map((v) => [v.task.id, v]));
    expect(Object.keys(byId).sort()).toEqual(['claude-shell-bash_1', 'claude-shell-bash_2', 'dev', 'gone']); // none dropped
    expect(byId.dev).toMatchObject({
      shownState: 'running',
      processAlive: true,
      canTerminate: true,
      recommendation: { actions: ['terminate', 'restart'], restartCommand: "cd '/work/my app' && npm run dev -- --port 5173" },
    });
    expect(byId.gone).toMatchObject({ shownState: 'stale', processAlive: false, canTerminate: false, recommendation: { actions: ['restart'] } });
    expect(byId.gone!.recommendation.prompt).toContain('Its process is gone');
    expect(byId['claude-shell-bash_1']).toMatchObject({ shownState: 'unverified', processAlive: null, canTerminate: false, recommendation: { restartCommand: 'cd /srv/site && python -m http.server' } });
    expect(byId['claude-shell-bash_1']!.recommendation.prompt).toContain('Claude Code transcript');
    expect(byId['claude-shell-bash_2']).toMatchObject({ shownState: 'killed', recommendation: { actions: ['keep'], restartCommand: null } });
    expect(shown.filter((v) => v.shownState === 'running').map((v) => v.task.id)).toEqual(['dev']);

    // The manifest lists the unfinished ones, registered and imported, each once.
    expect(manifestTasksOf(views, imported).map((t) => t.id).sort()).toEqual(['claude-shell-bash_1', 'dev', 'gone']);
  });

  it('pidAlive and restartCommandOf', () => {
    expect(pidAlive(process.pid)).toBe(true);
    expect(pidAlive(null)).toBeNull();
    expect(pidAlive(2 ** 22 + 12345)).toBe(false);
    expect(restartCommandOf({ id: 'x', kind: 'k', command: "echo 'hi'", state: 'running' }, "/it's here")).toBe(`cd '/it'\\''s here' && echo 'hi'`);
  });
});
