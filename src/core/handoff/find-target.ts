import { connectEndpoint } from '../transport/client.js';
import type { EndpointClient, EndpointInfo } from '../transport/types.js';
import { formatBatonUrl } from '../../shared/baton-url.js';
import { launchUrl } from './launcher.js';

/** First wait between connection attempts after launching the app; doubles up to the cap. */
export const TARGET_RETRY_INITIAL_MS = 100;
export const TARGET_RETRY_MAX_MS = 1_000;

export type TargetResult =
  | { found: true; client: EndpointClient; launched: boolean }
  | { found: false; category: 'no_target' | 'launch_failure'; reason: string };

export interface FindTargetOptions {
  endpoint: EndpointInfo;
  token: Buffer;
  handoffId: string;
  sessionId: string;
  /** Total time to wait for a launched app (default 10 s). */
  timeoutMs: number;
  /** Start the desktop app through baton:// when nothing answers. */
  launch: boolean;
  /**
   * The first attempt, already under way (connectFirst): the CLI connects while the session is
   * still landing, so the handshake is not waited for after it.
   */
  first?: Promise<ConnectAttempt>;
}

export interface ConnectAttempt {
  client?: EndpointClient;
  code?: string;
  reason: string;
}

/**
 * Connects to a running receiver; if none answers, opens baton://handoff/<id> with the OS launcher
 * and retries with bounded backoff. Never waits when there is nothing that could start the app.
 */
export async function findTarget(options: FindTargetOptions): Promise<TargetResult> {
  const first = await (options.first ?? tryConnect(options));
  if (first.client) return { found: true, client: first.client, launched: false };
  if (first.code !== 'NO_TARGET') return { found: false, category: 'no_target', reason: first.reason };
  if (!options.launch) return { found: false, category: 'no_target', reason: 'no Baton app is running (launching was turned off)' };

  const url = formatBatonUrl({ kind: 'handoff', handoffId: options.handoffId, sessionId: options.sessionId });
  const launch = await launchUrl(url);
  if (!launch.launched) return { found: false, category: 'no_target', reason: `no Baton app is running, and it could not be started: ${launch.reason}` };

  const deadline = Date.now() + options.timeoutMs;
  let wait = TARGET_RETRY_INITIAL_MS;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(wait, Math.max(0, deadline - Date.now()))));
    const attempt = await tryConnect(options);
    if (attempt.client) return { found: true, client: attempt.client, launched: true };
    wait = Math.min(wait * 2, TARGET_RETRY_MAX_MS);
  }
  return {
    found: false,
    category: 'launch_failure',
    reason: `${launch.command} was asked to open ${url}, but no Baton app answered within ${Math.round(options.timeoutMs / 1000)} s`,
  };
}

/** One connection attempt to start early; never rejects (its failure is findTarget's first answer). */
export function connectFirst(options: Pick<FindTargetOptions, 'endpoint' | 'token' | 'timeoutMs'>): Promise<ConnectAttempt> {
  return tryConnect(options);
}

async function tryConnect(options: Pick<FindTargetOptions, 'endpoint' | 'token' | 'timeoutMs'>): Promise<ConnectAttempt> {
  try {
    const client = await connectEndpoint({ endpoint: options.endpoint, token: options.token, timeoutMs: Math.min(options.timeoutMs, 5_000) });
    return { client, reason: '' };
  } catch (error) {
    const code = (error as { code?: string }).code;
    return { code, reason: `${code ?? 'ERROR'}: ${(error as Error).message}` };
  }
}
