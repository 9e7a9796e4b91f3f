// A real receiver in its own process, for tests that kill it with SIGKILL mid-offer.
// argv: <dataDir> [capabilities, comma-separated; default: the desktop's]. Prints "ready" once it listens.
// With fewer capabilities it stands in for a host that cannot show everything (needs-capabilities tests).
import { openStore } from '../../store/index.js';
import { ensureEndpointDir, loadOrCreateToken, resolveEndpoint } from '../../transport/endpoint.js';
import { startEndpointServer } from '../../transport/server.js';
import { createReceiver } from '../receiver.js';
import { DESKTOP_CAPABILITIES } from '../../host/capabilities.js';

const dataDir = process.argv[2]!;
const capabilities = process.argv[3] !== undefined ? process.argv[3].split(',').filter(Boolean) : [...DESKTOP_CAPABILITIES];
const store = await openStore(dataDir);
const endpoint = resolveEndpoint(dataDir, {});
await ensureEndpointDir(endpoint.dir);
const token = await loadOrCreateToken(endpoint.tokenPath);
await startEndpointServer({ endpoint, token, handle: createReceiver({ store, capabilities, holder: 'desktop' }) });
process.stdout.write('ready\n');
