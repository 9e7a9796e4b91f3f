import { loadOrCreateIdentity } from '../crypto/identity.js';
import type { SessionStore } from '../store/types.js';
import type { RequestHandler } from '../transport/types.js';
import { readRelayConfig } from './config.js';
import { connectRelay, ensureRelayResources, type Relay } from './connection.js';
import { startDeviceInbox, type DeviceInbox, type InboxStats } from './device-inbox.js';
import { PRESENCE_BUCKET, PRESENCE_MAX_AGE_MS } from './resources.js';

/** Presence is renewed this many times per bucket max_age, so one missed beat does not show the device offline. */
export const PRESENCE_BEATS_PER_MAX_AGE = 3;

export function presenceIntervalMs(maxAgeMs: number = PRESENCE_MAX_AGE_MS): number {
  return Math.floor(maxAgeMs / PRESENCE_BEATS_PER_MAX_AGE);
}

export interface RelayHost {
  /** 'connecting' until the relay answered once; 'error' with the reason when it never did. */
  readonly state: 'connecting' | 'online' | 'error';
  readonly error: string | null;
  readonly stats: InboxStats | null;
  /** Resolves once the inbox consumes (tests and the first status). */
  readonly ready: Promise<void>;
  /** The live connection, for pairing from the UI; undefined until online. */
  connection(): Relay | undefined;
  /** Device ids with a live presence entry (the bucket's max_age expires the others). */
  presence(): Promise<Set<string>>;
  close(): Promise<void>;
}

/**
 * A host with a relay configured (desktop or `baton serve`): keeps a reconnecting connection, the
 * durable inbox consumer and a presence entry. Without a configuration nothing is started and
 * nothing leaves the machine.
 */
export async function startRelayHost(options: {
  dataDir: string;
  store: SessionStore;
  receive: RequestHandler;
  /** The presence bucket's max_age (default PRESENCE_MAX_AGE_MS); heartbeats follow it. Tests lower it. */
  presenceMaxAgeMs?: number;
}): Promise<RelayHost | undefined> {
  const config = await readRelayConfig(options.dataDir).catch(() => undefined);
  if (!config) return undefined;
  const identity = await loadOrCreateIdentity(options.dataDir);
  let state: RelayHost['state'] = 'connecting';
  let error: string | null = null;
  let relay: Relay | undefined;
  let inbox: DeviceInbox | undefined;
  let presence: NodeJS.Timeout | undefined;
  let closed = false;

  const ready = (async () => {
    relay = await connectRelay(config, { persistent: true });
    if (closed) return;
    await ensureRelayResources(relay, { presenceMaxAgeMs: options.presenceMaxAgeMs });
    inbox = await startDeviceInbox({ relay, identity, dataDir: options.dataDir, store: options.store, receive: options.receive });
    const beat = async () => {
      const kv = await relay!.kv(PRESENCE_BUCKET);
      await kv.put(identity.deviceId, JSON.stringify({ at: new Date().toISOString() }));
    };
    await beat().catch(() => undefined);
    presence = setInterval(() => void beat().catch(() => undefined), presenceIntervalMs(options.presenceMaxAgeMs));
    presence.unref();
    state = 'online';
  })().catch((e: Error) => {
    state = 'error';
    error = e.message;
  });

  return {
    get state() {
      return state;
    },
    get error() {
      return error;
    },
    get stats() {
      return inbox?.stats ?? null;
    },
    ready,
    connection: () => (state === 'online' ? relay : undefined),
    presence: async () => {
      if (!relay || state !== 'online') throw new Error('the relay is not connected');
      const kv = await relay.kv(PRESENCE_BUCKET);
      const ids = new Set<string>();
      for await (const key of await kv.keys()) ids.add(key);
      return ids;
    },
    close: async () => {
      closed = true;
      if (presence) clearInterval(presence);
      await inbox?.stop();
      await relay?.close().catch(() => undefined);
    },
  };
}
