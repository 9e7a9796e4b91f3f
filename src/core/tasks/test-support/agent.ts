/**
 * A real agent process for the task tests: it heartbeats a task every TTL/3 over the endpoint
 * and stops (exit 3) the moment Baton tells it to. Optionally completes the task after N beats.
 * argv: <taskId> <epoch|register> <ttlMs> [completeAfterBeats]
 * With `register` the agent registers the task itself once connected, so a slow process start
 * cannot eat the lease before the first heartbeat.
 * env: BATON_HOME (the data dir the test server uses).
 */
import { connectEndpoint } from '../../transport/client.js';
import { loadOrCreateToken, resolveEndpoint } from '../../transport/endpoint.js';

const [taskId, epochText, ttlText, completeAfter] = process.argv.slice(2);
let epoch = Number(epochText);
const ttl = Number(ttlText);
const dataDir = process.env.BATON_HOME!;
const endpoint = resolveEndpoint(dataDir, {}, process.platform);
const client = await connectEndpoint({ endpoint, token: await loadOrCreateToken(endpoint.tokenPath) });
if (epochText === 'register') {
  const registered = await client.request('task.register', { id: taskId, kind: 'agent-task', command: 'agent.ts', pid: process.pid, recoverable: false, leaseTtlMs: ttl });
  if (!registered.ok) throw new Error(`register failed: ${JSON.stringify(registered)}`);
  epoch = Number(registered.epoch);
}
process.stdout.write('ready\n');
let beats = 0;
for (;;) {
  const answer = await client.request('task.heartbeat', { id: taskId, epoch });
  if (!answer.ok) {
    process.stdout.write(`stop ${String(answer.code)}\n`);
    client.close();
    process.exit(answer.stop === true ? 3 : 1);
  }
  beats++;
  process.stdout.write(`beat ${beats}\n`);
  if (completeAfter !== undefined && beats >= Number(completeAfter)) {
    const done = await client.request('task.complete', { id: taskId, epoch, status: 'completed', exitCode: 0, lastLogLines: ['all good'], result: { beats } });
    process.stdout.write(`complete ${JSON.stringify(done)}\n`);
    client.close();
    process.exit(done.ok ? 0 : 1);
  }
  await new Promise((r) => setTimeout(r, Math.floor(ttl / 3)));
}
