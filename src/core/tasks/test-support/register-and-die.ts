/**
 * A client killed before it reads the ack: sends task.register and SIGKILLs itself right after
 * the frame left. argv: <taskId>. env: BATON_HOME.
 */
import { connectEndpoint } from '../../transport/client.js';
import { loadOrCreateToken, resolveEndpoint } from '../../transport/endpoint.js';

const [taskId] = process.argv.slice(2);
const endpoint = resolveEndpoint(process.env.BATON_HOME!, {}, process.platform);
const client = await connectEndpoint({ endpoint, token: await loadOrCreateToken(endpoint.tokenPath) });
void client.request('task.register', { id: taskId, kind: 'build', command: 'make all', recoverable: false, leaseTtlMs: 60_000 });
setImmediate(() => process.kill(process.pid, 'SIGKILL'));
