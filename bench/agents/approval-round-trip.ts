/**
 * The approval round trip of a desktop run (issue 19): from the person's decision
 * (`approvals:decide`, what the Approve button sends) until the real Claude Code 2.1.328 has run
 * the call and its result is streamed back (the `tool-result` event). Host services in this
 * process, the approval hook is the built `bin/baton.js approve --hook claude` (run `npm run
 * build` first), the model is the loopback stand-in.
 * Baseline, same run: one whole Claude Code turn answering text only (send → run finished), the
 * cost of starting the agent at all, against which the round trip after a click is small or not.
 * Run: npx tsx bench/agents/approval-round-trip.ts   (N=8 by default)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { RunEvent } from '../../src/shared/agent-run.js';
import { startHostServices } from '../../src/core/host/host-services.js';
import { agentBinaries, makeAgentHome, seedClaudeSession } from '../../src/core/agent-run/test-support/agent-home.js';
import { startStandInModel } from '../../src/core/agent-run/test-support/stand-in-model.js';
import { shellQuote } from '../../src/shared/agents.js';
import { printTable, summarize } from '../stats.js';

const N = Number(process.env.N ?? 8);
const REPO = path.resolve(import.meta.dirname, '../..');
const binaries = agentBinaries();
const model = await startStandInModel();
const agent = makeAgentHome(model.url, binaries);
Object.assign(process.env, agent.env);
model.script([{ kind: 'text', text: 'hello' }]);
const { transcript } = await seedClaudeSession(agent, binaries);
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'baton-bench-run-'));
const host = await startHostServices({ dataDir, kind: 'browser', capabilities: [], batonCommand: `${shellQuote(process.execPath)} ${shellQuote(path.join(REPO, 'bin', 'baton.js'))}` });
const call = async (channel: string, payload: unknown): Promise<any> => {
  const answer = await host.dispatch(channel, payload);
  if (!answer.ok) throw new Error(`${channel}: ${answer.error.message}`);
  return answer.value;
};
const { sessionId } = await call('agents:import', { source: 'claude', path: transcript });
if (process.env.BENCH_DEBUG) host.runner.onEvent((_id, _run, event) => console.error(JSON.stringify(event).slice(0, 200)));

function nextEvent(kind: RunEvent['kind']): Promise<number> {
  return new Promise((resolve) => {
    const off = host.runner.onEvent((id, _run, event) => {
      if (id === sessionId && event.kind === kind) {
        off();
        resolve(performance.now());
      }
    });
  });
}
async function pending(): Promise<{ request: { requestId: string } }> {
  for (;;) {
    const found = host.approvals.listPending().find((v) => v.request.sessionId === sessionId);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 5));
  }
}

const clicked: number[] = [];
const turns: number[] = [];
for (let i = 0; i < N + 1; i++) {
  if (process.env.BENCH_DEBUG) console.error(`round ${i}`);
  // Person decides: decision → result streamed back.
  model.script([{ kind: 'shell', command: `touch rt-${i}.txt` }, { kind: 'text', text: 'ok' }]);
  let finished = nextEvent('finished');
  await call('composer:send', { sessionId, prompt: `round ${i}` });
  const request = await pending();
  const result = nextEvent('tool-result');
  const t0 = performance.now();
  await call('approvals:decide', { requestId: request.request.requestId, decision: 'approve', confirmHighRisk: true });
  const t1 = await result;
  await finished;
  if (i > 0) clicked.push(t1 - t0); // the first run warms the caches

  // Baseline: one whole Claude Code turn that answers with text only (send → finished).
  model.script([{ kind: 'text', text: 'just text' }]);
  finished = nextEvent('finished');
  const s0 = performance.now();
  await call('composer:send', { sessionId, prompt: `text ${i}` });
  const s1 = await finished;
  if (i > 0) turns.push(s1 - s0);
}
if (process.env.BENCH_DEBUG) console.error(JSON.stringify(await host.approvals.grants.list()));

const a = summarize(clicked);
const b = summarize(turns);
printTable([
  { path: 'baseline: a text-only turn (send → finished)', n: b.n, 'p50 ms': b.p50, 'p95 ms': b.p95, ratio: 1 },
  { path: 'person decides (decide → result streamed)', n: a.n, 'p50 ms': a.p50, 'p95 ms': a.p95, ratio: a.p50 / b.p50 },
]);
await host.close();
await model.close();
await rm(dataDir, { recursive: true, force: true });
await rm(agent.root, { recursive: true, force: true });
