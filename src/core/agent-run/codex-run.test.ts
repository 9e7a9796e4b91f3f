import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ComposerStatus, RunEvent } from '../../shared/agent-run.js';
import { startHostServices, type HostServices } from '../host/host-services.js';
import { agentBinaries, makeAgentHome, seedCodexSession, type AgentHome } from './test-support/agent-home.js';
import { startStandInModel, type StandInModel } from './test-support/stand-in-model.js';

/**
 * Continue a Codex session in the desktop with the real `codex` 0.169.0: `codex exec resume <id>
 * --json` in the session's own sandbox. Codex exec cannot ask for approvals; the composer says so,
 * and a write in a read-only session is refused by Codex's sandbox (never wider).
 */
let model: StandInModel;
let agent: AgentHome;
let dataDir: string;
let host: HostServices;
const savedEnv = { ...process.env };

beforeAll(async () => {
  const binaries = agentBinaries();
  model = await startStandInModel();
  agent = makeAgentHome(model.url, binaries);
  Object.assign(process.env, agent.env);
  dataDir = await mkdtemp(join(tmpdir(), 'baton-codex-'));
}, 600_000);

afterAll(async () => {
  await host?.close();
  await model?.close();
  process.env = savedEnv;
  if (agent) await rm(agent.root, { recursive: true, force: true });
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it('runs codex exec resume in the session sandbox, streams its answer, and the rollout and Baton get the new turn once', async () => {
  model.script([{ kind: 'text', text: 'Hello from Codex.' }]);
  const { sessionId: threadId, rollout } = await seedCodexSession(agent, agentBinaries());
  host = await startHostServices({ dataDir, kind: 'browser', capabilities: [] });
  const imported = await host.dispatch('agents:import', { source: 'codex', path: rollout });
  if (!imported.ok) throw new Error(imported.error.message);
  const { sessionId } = imported.value as { sessionId: string };
  const before = (await host.store.readMessages(sessionId)).length;

  const status = (await host.dispatch('composer:status', { sessionId })) as { ok: true; value: ComposerStatus };
  expect(status.value).toMatchObject({ available: true, tool: 'codex' });
  expect(status.value.approvals).toMatch(/cannot ask for approvals.*sandbox read-only/);

  model.script([{ kind: 'shell', command: 'touch codex-made.txt' }, { kind: 'text', text: 'Codex tried.' }]);
  const events: RunEvent[] = [];
  const finished = new Promise<void>((done) =>
    host.runner.onEvent((id, _run, event) => {
      if (id !== sessionId) return;
      events.push(event);
      if (event.kind === 'finished') done();
    }),
  );
  const sent = await host.dispatch('composer:send', { sessionId, prompt: 'make the file' });
  expect(sent.ok).toBe(true);
  await finished;
  expect(events.filter((e) => e.kind === 'error' && !/Model metadata/.test(e.message))).toEqual([]);
  expect(events.at(-1)).toMatchObject({ kind: 'finished', state: 'completed', exitCode: 0 });
  expect(events.some((e) => e.kind === 'text' && e.text === 'Codex tried.')).toBe(true);
  // Codex's shell call as a live tool card, read from the rollout as it grew (with an approval
  // policy set, codex 0.169.0 prints no command_execution item): the call, then its result.
  const call = events.findIndex((e) => e.kind === 'tool-call' && e.name === 'exec_command');
  expect(events[call]).toMatchObject({ kind: 'tool-call', input: { command: 'touch codex-made.txt' } });
  const result = events.findIndex((e) => e.kind === 'tool-result' && e.id === (events[call] as { id: string }).id);
  expect(result).toBeGreaterThan(call);
  expect(events[result]).toMatchObject({ isError: true, output: expect.stringMatching(/Read-only file system/) });
  // The session's read-only sandbox held: the write was refused by Codex, not widened.
  const toolOutput = JSON.stringify(model.requests.at(-1)?.body);
  expect(toolOutput).toMatch(/Read-only file system/);
  // The rollout holds the new turn (codex resume continues from it), Baton's copy too, once.
  expect(readFileSync(rollout, 'utf8')).toContain('make the file');
  expect((await host.store.readMessages(sessionId)).length).toBeGreaterThan(before);
  expect((await host.store.getSession(sessionId)).holder.who).toBe('desktop');
  const texts = (await host.store.readMessages(sessionId)).map((m) => m.content);
  expect(texts.filter((t) => t.includes('Codex tried.'))).toHaveLength(1);
  const command = await host.dispatch('terminal:command', { sessionId: sessionId });
  expect(command.ok && (command.value as { command: string }).command).toBe(`codex resume ${threadId}`);
}, 120_000);
