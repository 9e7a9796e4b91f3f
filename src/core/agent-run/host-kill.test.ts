import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHostServices, type HostServices } from '../host/host-services.js';
import { processStartTime } from '../tasks/process-start-time.js';
import { agentBinaries, makeAgentHome, seedClaudeSession, type AgentHome } from './test-support/agent-home.js';
import { startStandInModel, type StandInModel } from './test-support/stand-in-model.js';

/**
 * The host is SIGKILLed while its desktop run waits for an approval. After a restart on the same
 * data: the run's task is failed or orphaned (never running), no approval is left undecided, and
 * the session reads back.
 */
const REPO = resolve(import.meta.dirname, '../../..');
const TSX = join(REPO, 'node_modules/tsx/dist/cli.mjs');
/** tsx's loader in this process, not its CLI: the CLI runs the script in a second process, which SIGKILL would miss. */
const TSX_LOADER = `file://${join(REPO, 'node_modules/tsx/dist/loader.mjs')}`;
let model: StandInModel;
let agent: AgentHome;
let dataDir: string;
let restarted: HostServices | undefined;
let agentPid = 0;
const savedEnv = { ...process.env };

beforeAll(async () => {
  const binaries = agentBinaries();
  model = await startStandInModel();
  agent = makeAgentHome(model.url, binaries);
  Object.assign(process.env, agent.env);
  dataDir = await mkdtemp(join(tmpdir(), 'baton-kill-'));
}, 600_000);

afterAll(async () => {
  await restarted?.close();
  // The agent the killed host left: signalled only while its start time still matches.
  if (agentPid > 0 && (await processStartTime(agentPid)) !== null) process.kill(agentPid, 'SIGTERM');
  for (let i = 0; i < 100 && agentPid > 0 && (await processStartTime(agentPid)) !== null; i++) await new Promise((r) => setTimeout(r, 50));
  await model?.close();
  process.env = savedEnv;
  if (agent) await rm(agent.root, { recursive: true, force: true });
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it('a host killed mid-run leaves a failed or orphaned task, no undecided approval, and a readable session', async () => {
  model.script([{ kind: 'text', text: 'first turn' }]);
  const { transcript } = await seedClaudeSession(agent, agentBinaries());
  model.script([{ kind: 'shell', command: 'touch never-approved.txt' }, { kind: 'text', text: 'after the host died' }]);
  const child = spawn(process.execPath, ['--import', TSX_LOADER, join(import.meta.dirname, 'test-support/host-child.ts'), transcript], {
    env: { ...process.env, BATON_HOME: dataDir, BATON_HOOK_COMMAND: `${process.execPath} ${TSX} ${join(REPO, 'src/cli/run.ts')}` },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const found = out.split('\n').find((l) => l.startsWith('PENDING '));
      if (found) done(found);
    });
    child.once('exit', (code) => fail(new Error(`the host child exited (${code}) before the approval was pending`)));
  });
  const [, sessionId, pid] = line.split(' ');
  agentPid = Number(pid);
  child.removeAllListeners('exit');
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await gone;

  restarted = await startHostServices({ dataDir, kind: 'browser', capabilities: [] });
  const tasks = await restarted.tasks.list({ sessionId: sessionId! });
  expect(tasks).toHaveLength(1);
  expect(['failed', 'orphaned']).toContain(tasks[0]!.state);
  expect(tasks[0]!.record.outcome?.reason ?? 'orphaned').toMatch(/stopped|orphan/);
  const history = await restarted.approvals.history(sessionId!);
  expect(history.length).toBeGreaterThan(0);
  expect(history.every((v) => v.decision !== null)).toBe(true);
  expect(restarted.approvals.listPending().filter((v) => v.request.sessionId === sessionId)).toEqual([]);
  const session = await restarted.store.getSession(sessionId!);
  const messages = await restarted.store.readMessages(sessionId!);
  expect(messages).toHaveLength(session.messageCount);
  // The composer shows no run as going after the restart.
  const status = await restarted.dispatch('composer:status', { sessionId });
  expect(status.ok && (status.value as { run: unknown }).run).toBeNull();
}, 120_000);
