import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComposerStatus, RunEvent } from '../../shared/agent-run.js';
import type { FileDiff, WorkspaceVerification } from '../../shared/workspace.js';
import { startHostServices, type HostServices } from '../host/host-services.js';
import { processStartTime } from '../tasks/process-start-time.js';
import { syncAgentLog } from './sync-agent-log.js';
import { createAgentRunner } from './agent-runner.js';
import { agentBinaries, makeAgentHome, seedClaudeSession, type AgentBinaries, type AgentHome } from './test-support/agent-home.js';
import { startStandInModel, type StandInModel } from './test-support/stand-in-model.js';

/**
 * Continue a Claude Code session in the desktop, end to end through the host services: the real
 * `claude` 2.1.328 (from the agent cache), the real `baton approve --hook claude` over the real
 * endpoint socket, real files; only the model is the loopback stand-in.
 */
const REPO = resolve(import.meta.dirname, '../../..');
const BATON_DEV_COMMAND = `${process.execPath} ${join(REPO, 'node_modules/tsx/dist/cli.mjs')} ${join(REPO, 'src/cli/run.ts')}`;

let binaries: AgentBinaries;
let model: StandInModel;
let agent: AgentHome;
let dataDir: string;
let host: HostServices;
let sessionId: string;
let transcript: string;
const savedEnv = { ...process.env };

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 45_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function call<T>(channel: string, payload: unknown): Promise<T> {
  const answer = await host.dispatch(channel, payload);
  if (!answer.ok) throw new Error(`${channel}: ${answer.error.code} ${answer.error.message}`);
  return answer.value as T;
}

function collect(): { events: RunEvent[]; finished: Promise<RunEvent & { kind: 'finished' }> } {
  const events: RunEvent[] = [];
  let done!: (e: RunEvent & { kind: 'finished' }) => void;
  const finished = new Promise<RunEvent & { kind: 'finished' }>((r) => (done = r));
  const off = host.onUiEvent((event, payload) => {
    if (event !== 'composer:event') return;
    const p = payload as { sessionId: string; event: RunEvent };
    if (p.sessionId !== sessionId) return;
    events.push(p.event);
    if (p.event.kind === 'finished') {
      off();
      done(p.event);
    }
  });
  return { events, finished };
}

beforeAll(async () => {
  binaries = agentBinaries();
  model = await startStandInModel();
  agent = makeAgentHome(model.url, binaries);
  // The host reads the agents' folders and starts them with its own environment: the private one.
  Object.assign(process.env, agent.env);
  model.script([{ kind: 'text', text: 'Hello from the first turn.' }]);
  // A git project with one commit and one file already dirty before Baton runs the agent.
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: agent.project });
  git('init', '-q');
  writeFileSync(join(agent.project, 'notes.txt'), 'first line\n');
  git('add', 'notes.txt');
  git('commit', '-q', '-m', 'start');
  writeFileSync(join(agent.project, 'notes.txt'), 'first line\ndirty before the run\n');
  ({ transcript } = await seedClaudeSession(agent, binaries));
  dataDir = await mkdtemp(join(tmpdir(), 'baton-run-'));
  host = await startHostServices({ dataDir, kind: 'browser', capabilities: [], batonCommand: BATON_DEV_COMMAND });
  ({ sessionId } = await call<{ sessionId: string }>('agents:import', { source: 'claude', path: transcript }));
}, 600_000);

afterAll(async () => {
  await host?.close();
  await model?.close();
  process.env = savedEnv;
  if (agent) await rm(agent.root, { recursive: true, force: true });
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('continue a Claude Code session in the desktop', () => {
  it('offers the composer with the recorded model and says how approvals go', async () => {
    const status = await call<ComposerStatus>('composer:status', { sessionId });
    expect(status).toMatchObject({ available: true, tool: 'claude', reason: null, run: null });
    expect(status.models).toContain('sonnet');
    expect(status.approvals).toMatch(/PreToolUse hook, for this run only/);
  });

  it('is off when the approval hook could not start (it would fail open in Claude Code)', async () => {
    const runner = createAgentRunner({ store: host.store, tasks: host.tasks, dataDir, batonCommand: 'baton', env: { ...process.env, PATH: '/nonexistent' } });
    const status = await runner.status(sessionId);
    expect(status).toMatchObject({ available: false, tool: 'claude' });
    expect(status.reason).toMatch(/`baton` on PATH/);
    await expect(runner.send({ sessionId, prompt: 'x' })).rejects.toThrow(/baton/);
    await runner.close();
  });

  it('streams a tool call, waits for the approval in Baton, runs it, and the session and the agent log get the new turns once', async () => {
    const before = await host.store.getSession(sessionId);
    model.script([{ kind: 'shell', command: 'echo made by the agent > made-by-agent.txt && echo created' }, { kind: 'text', text: 'Created the file.' }]);
    const run = collect();
    const sent = await call<ComposerStatus>('composer:send', { sessionId, prompt: 'make the file' });
    expect(sent.run?.state).toBe('running');
    // The baton moved to the desktop (epoch + 1).
    expect((await host.store.getSession(sessionId)).holder).toMatchObject({ who: 'desktop', epoch: before.holder.epoch + 1 });
    const pending = await until('the approval request', () => host.approvals.listPending().find((v) => v.request.sessionId === sessionId));
    expect(pending.request.input).toMatchObject({ command: 'echo made by the agent > made-by-agent.txt && echo created' });
    expect(run.events.some((e) => e.kind === 'tool-call' && e.name === 'Bash')).toBe(true);
    await call('approvals:decide', { requestId: pending.request.requestId, decision: 'approve', confirmHighRisk: true });
    const finished = await run.finished;
    expect(finished).toMatchObject({ state: 'completed', exitCode: 0 });
    expect(run.events.find((e) => e.kind === 'tool-result')).toMatchObject({ output: 'created', isError: false });
    expect(run.events.some((e) => e.kind === 'text' && e.text === 'Created the file.')).toBe(true);
    expect(existsSync(join(agent.project, 'made-by-agent.txt'))).toBe(true);
    // The tree watcher saw the agent's file while the run went.
    expect(run.events.filter((e) => e.kind === 'files').at(-1)).toMatchObject({ paths: expect.arrayContaining(['made-by-agent.txt']) });
    // The Changes tab: the working directory was captured before the run (the dirty notes.txt is
    // in the baseline, not a change of the run); the file the agent wrote differs from it, and its
    // diff has the baseline (no file) on one side and what the agent wrote on the other.
    const status = await call<{ hasWorkspace: boolean; verification: WorkspaceVerification }>('workspace:status', { sessionId });
    expect(status.hasWorkspace).toBe(true);
    expect(status.verification.drifted.map((d) => d.path)).toEqual(['made-by-agent.txt']);
    const diff = await call<FileDiff>('workspace:file', { sessionId, path: 'made-by-agent.txt', against: 'disk' });
    expect(diff.original).toMatchObject({ kind: 'text', text: 'made by the agent\n' });
    expect(diff.modified).toMatchObject({ kind: 'absent' });
    // The agent's own log holds the new turns (claude --resume continues from them) …
    expect(readFileSync(transcript, 'utf8')).toContain('Created the file.');
    // … and Baton's copy caught up, without duplicates when synced again.
    const after = await until('the re-import', async () => {
      const doc = await host.store.getSession(sessionId);
      return doc.messageCount > before.messageCount ? doc : undefined;
    });
    const texts = (await host.store.readMessages(sessionId)).map((m) => m.content);
    expect(texts.filter((t) => t.includes('Created the file.'))).toHaveLength(1);
    expect(await syncAgentLog(host.store, after, process.env)).toEqual({ appended: 0 });
    const task = (await host.tasks.list({ sessionId })).at(-1)!;
    expect(task).toMatchObject({ state: 'completed', record: { kind: 'agent-run' } });
  });

  it('a denied call is not run and the agent hears the denial', async () => {
    model.script([{ kind: 'shell', command: 'rm -rf build-output' }, { kind: 'text', text: 'Understood, not deleting.' }]);
    const run = collect();
    await call('composer:send', { sessionId, prompt: 'clean up' });
    const pending = await until('the approval request', () => host.approvals.listPending().find((v) => v.request.sessionId === sessionId));
    await call('approvals:decide', { requestId: pending.request.requestId, decision: 'deny', reason: 'not now' });
    expect(await run.finished).toMatchObject({ state: 'completed' });
    const result = run.events.find((e) => e.kind === 'tool-result');
    expect(result).toMatchObject({ isError: true });
    expect((result as { output: string }).output).toMatch(/not now|denied/i);
    // The model received the denial as the tool result of its call.
    const lastBody = JSON.stringify(model.requests.at(-1)?.body);
    expect(lastBody).toMatch(/not now|denied/i);
  });

  it('stop sends SIGINT then SIGTERM to the started pid only, and the process is gone', async () => {
    // Claude Code refuses a bare `sleep 60`; a loop is a long run it accepts.
    model.script([{ kind: 'shell', command: 'for i in $(seq 60); do echo tick $i; sleep 1; done' }, { kind: 'text', text: 'never' }]);
    const run = collect();
    const sent = await call<ComposerStatus>('composer:send', { sessionId, prompt: 'wait a minute' });
    const started = sent.run!.events.find((e) => e.kind === 'started') as { pid: number };
    const pending = await until('the approval request', () => host.approvals.listPending().find((v) => v.request.sessionId === sessionId));
    await call('approvals:decide', { requestId: pending.request.requestId, decision: 'approve', confirmHighRisk: true });
    // Queued while running: shown as queued, dropped by stop.
    const queued = await call<ComposerStatus>('composer:send', { sessionId, prompt: 'then this' });
    expect(queued.queued).toBe('then this');
    const stopped = await call<ComposerStatus>('composer:stop', { sessionId });
    expect(stopped.queued).toBeNull();
    expect(await run.finished).toMatchObject({ state: 'stopped' });
    expect(await processStartTime(started.pid)).toBeNull();
    const task = (await host.tasks.list({ sessionId })).at(-1)!;
    expect(task.state).toBe('failed');
    expect(task.record.outcome?.reason).toMatch(/stopped/);
  });

  it('a crash shows as failed with the exit code and the last stderr lines, on the run and its task', async () => {
    // The real agent, failing for real: a session id Claude Code does not know.
    const lost = await host.store.createSession({ cwd: agent.project, gitRoot: null, branch: null, title: 'lost', holder: 'terminal', source: { tool: 'claude', externalId: '00000000-0000-4000-8000-000000000000', path: transcript } });
    const finished = new Promise<RunEvent>((done) => host.runner.onEvent((id, _run, event) => id === lost.id && event.kind === 'finished' && done(event)));
    await call('composer:send', { sessionId: lost.id, prompt: 'go on' });
    const end = (await finished) as RunEvent & { kind: 'finished' };
    expect(end).toMatchObject({ state: 'failed', exitCode: 1 });
    expect(end.stderrTail.join('\n')).toMatch(/No conversation found with session ID: 00000000-0000-4000-8000-000000000000/);
    const task = (await host.tasks.list({ sessionId: lost.id })).at(-1)!;
    expect(task).toMatchObject({ state: 'failed', record: { outcome: { exitCode: 1, reason: 'claude exited with 1' } } });
    expect(task.record.outcome?.lastLogLines.join('\n')).toMatch(/No conversation found/);
  });

  it('hands the baton back for the terminal', async () => {
    const before = await host.store.getSession(sessionId);
    const doc = await call<{ holder: { who: string; epoch: number } }>('composer:hand-back', { sessionId });
    expect(doc.holder).toEqual(expect.objectContaining({ who: 'terminal', epoch: before.holder.epoch + 1 }));
    const command = await call<{ command: string }>('terminal:command', { sessionId });
    expect(command.command).toMatch(/^claude --resume /);
  });

  it('closing the host stops the runs it started, and the task says why', async () => {
    model.script([{ kind: 'shell', command: 'for i in $(seq 60); do echo tick $i; sleep 1; done' }, { kind: 'text', text: 'never' }]);
    const sent = await call<ComposerStatus>('composer:send', { sessionId, prompt: 'run long' });
    const started = sent.run!.events.find((e) => e.kind === 'started') as { pid: number };
    const pending = await until('the approval request', () => host.approvals.listPending().find((v) => v.request.sessionId === sessionId));
    await call('approvals:decide', { requestId: pending.request.requestId, decision: 'approve', confirmHighRisk: true });
    await host.close();
    expect(await processStartTime(started.pid)).toBeNull();
    host = await startHostServices({ dataDir, kind: 'browser', capabilities: [], batonCommand: BATON_DEV_COMMAND });
    const task = (await host.tasks.list({ sessionId })).at(-1)!;
    expect(task.state).toBe('failed');
    expect(task.record.outcome?.reason).toMatch(/stopped/);
  });

  it('a host closed with "leave runs going" leaves the agent running, and the next start marks it as an orphan by pid', async () => {
    model.script([{ kind: 'shell', command: 'for i in $(seq 60); do echo tick $i; sleep 1; done' }, { kind: 'text', text: 'never' }]);
    const sent = await call<ComposerStatus>('composer:send', { sessionId, prompt: 'keep going without me' });
    const started = sent.run!.events.find((e) => e.kind === 'started') as { pid: number };
    const startTime = await processStartTime(started.pid);
    await until('the approval request', () => host.approvals.listPending().find((v) => v.request.sessionId === sessionId));
    // As the desktop shell closes it, with the person's "leave runs going" preference.
    await host.close({ leaveRunsOnClose: true });
    expect(await processStartTime(started.pid)).toBe(startTime);
    host = await startHostServices({ dataDir, kind: 'browser', capabilities: [], batonCommand: BATON_DEV_COMMAND });
    const task = (await host.tasks.list({ sessionId })).at(-1)!;
    expect(task.state).toBe('failed');
    expect(task.record.outcome?.reason).toBe(`the Baton host that started it stopped; its agent (pid ${started.pid}) is still running as an orphan`);
    // Cleaned up here: the pid is still the one Baton started.
    if ((await processStartTime(started.pid)) === startTime) process.kill(started.pid, 'SIGTERM');
    await until('the orphan to end', async () => ((await processStartTime(started.pid)) === null ? true : undefined));
  });
});
