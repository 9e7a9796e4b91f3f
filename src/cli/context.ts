import { resolveDataDir } from '../core/paths.js';
import { openStore } from '../core/store/index.js';
import type { OpenStoreOptions } from '../core/store/session-store.js';
import type { SessionStore } from '../core/store/types.js';
import { ensureEndpointDir, loadOrCreateToken } from '../core/transport/endpoint.js';
import { desktopEndpoint } from '../core/transport/forwarded-endpoint.js';
import type { EndpointInfo } from '../core/transport/types.js';

export interface CliContext {
  dataDir: string;
  store: SessionStore;
}

export async function openCliStore(options: Pick<OpenStoreOptions, 'keyStore'> = {}): Promise<CliContext> {
  const dataDir = resolveDataDir();
  return { dataDir, store: await openStore(dataDir, options) };
}

/**
 * The desktop to talk to: the laptop's, forwarded by `baton ssh` ($BATON_SSH_ENDPOINT, or
 * ~/.baton-ssh/current when no desktop listens here; `forwarded`: the session's content must
 * travel with the offer), else this machine's own. Either directory must be private and ours.
 */
export async function endpointFor(dataDir: string): Promise<{ endpoint: EndpointInfo; token: Buffer; forwarded: boolean }> {
  const { endpoint, forwarded } = desktopEndpoint(dataDir);
  await ensureEndpointDir(endpoint.dir);
  return { endpoint, token: await loadOrCreateToken(endpoint.tokenPath), forwarded };
}

// In a file of its own: the hosted handoff's small bundle (handoff-fast.ts) prints it without the store.
export { resumeCommand } from './resume-command.js';
