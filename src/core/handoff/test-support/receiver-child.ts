// A real receiver in its own process, for tests that kill it with SIGKILL mid-offer.
// argv: <dataDir>. Prints "ready" once it listens.
import { openStore } from '../../store/index.js';
import { ensureEndpointDir, loadOrCreateToken, resolveEndpoint } from '../../transport/endpoint.js';
import { startEndpointServer } from '../../transport/server.js';
import { createReceiver } from '../receiver.js';

const dataDir = process.argv[2]!;
const store = await openStore(dataDir);
const endpoint = resolveEndpoint(dataDir, {});
await ensureEndpointDir(endpoint.dir);
const token = await loadOrCreateToken(endpoint.tokenPath);
await startEndpointServer({ endpoint, token, handle: createReceiver({ store, capabilities: ['conversation'], holder: 'desktop' }) });
process.stdout.write('ready\n');
