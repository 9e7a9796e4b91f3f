/**
 * A host killed mid-run: starts the host services on $BATON_HOME, imports the Claude Code session
 * at argv[2], sends a follow-up, and prints `PENDING <sessionId> <agentPid>` once the agent's tool
 * call waits for an approval. The test then SIGKILLs this process.
 */
import { startHostServices } from '../../host/host-services.js';

const [transcript] = process.argv.slice(2);
const host = await startHostServices({ dataDir: process.env.BATON_HOME!, kind: 'browser', capabilities: [] });
const imported = await host.dispatch('agents:import', { source: 'claude', path: transcript });
if (!imported.ok) throw new Error(imported.error.message);
const { sessionId } = imported.value as { sessionId: string };
const sent = await host.dispatch('composer:send', { sessionId, prompt: 'make the file' });
if (!sent.ok) throw new Error(sent.error.message);
const started = (sent.value as { run: { events: Array<{ kind: string; pid?: number }> } }).run.events.find((e) => e.kind === 'started')!;
const timer = setInterval(() => {
  if (host.approvals.listPending().some((v) => v.request.sessionId === sessionId)) {
    clearInterval(timer);
    process.stdout.write(`PENDING ${sessionId} ${started.pid}\n`);
  }
}, 20);
