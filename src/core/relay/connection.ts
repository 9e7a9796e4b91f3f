import { readFile } from 'node:fs/promises';
import { connect, credsAuthenticator, nanos, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, RetentionPolicy, StorageType, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { Objm, type ObjectStore } from '@nats-io/obj';
import { checkRelayUrl, type RelayConfig } from './config.js';
import {
  ALL_STREAMS,
  BLOBS_STORE,
  DUPLICATE_WINDOW_MS,
  EVENTS_STREAM,
  EVENTS_SUBJECT_PREFIX,
  HANDOFF_STREAM,
  HANDOFF_SUBJECT_PREFIX,
  HEADS_BUCKET,
  PAIRING_BUCKET,
  PAIRING_TTL_MS,
  PRESENCE_BUCKET,
  PRESENCE_MAX_AGE_MS,
  RECEIPTS_BUCKET,
  TASKS_BUCKET,
} from './resources.js';

/** A CLI command gives up on an unreachable relay after this; a host keeps reconnecting. */
export const RELAY_CONNECT_TIMEOUT_MS = 5_000;
/** Longest a close waits for pending messages to flush. */
export const RELAY_CLOSE_TIMEOUT_MS = 2_000;

export interface Relay {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  kv(bucket: string): Promise<KV>;
  blobs(): Promise<ObjectStore>;
  close(): Promise<void>;
}

export interface RelayConnectOptions {
  /** Keep reconnecting forever (a host's durable consumer); a CLI command fails fast instead. */
  persistent?: boolean;
  timeoutMs?: number;
}

/** A relay failure with a category the CLI maps to an exit code. */
export class RelayError extends Error {
  constructor(
    readonly code: 'RELAY_UNREACHABLE' | 'RELAY_AUTH' | 'RELAY_NO_JETSTREAM' | 'RELAY_CONFIG',
    message: string,
  ) {
    super(message);
  }
}

export async function connectRelay(config: RelayConfig, options: RelayConnectOptions = {}): Promise<Relay> {
  const urls = checkRelayUrl(config.url);
  if (!urls.ok) throw new RelayError('RELAY_CONFIG', urls.message);
  const creds = config.credsPath ? await readFile(config.credsPath).catch((e: Error) => { throw new RelayError('RELAY_CONFIG', `Cannot read the creds file ${config.credsPath}: ${e.message}`); }) : undefined;
  let nc: NatsConnection;
  try {
    nc = await connect({
      servers: urls.servers,
      name: 'baton',
      timeout: options.timeoutMs ?? RELAY_CONNECT_TIMEOUT_MS,
      ...(config.token ? { token: config.token } : {}),
      ...(creds ? { authenticator: credsAuthenticator(new Uint8Array(creds)) } : {}),
      ...(config.tlsCaPath ? { tls: { caFile: config.tlsCaPath } } : {}),
      ...(options.persistent ? { maxReconnectAttempts: -1, reconnectTimeWait: 500, waitOnFirstConnect: true } : { maxReconnectAttempts: 0, reconnect: false }),
    });
  } catch (error) {
    const message = (error as Error).message;
    const auth = /auth/i.test(message);
    throw new RelayError(auth ? 'RELAY_AUTH' : 'RELAY_UNREACHABLE', `The relay at ${config.url} ${auth ? 'refused the credentials' : 'cannot be reached'}: ${message}`);
  }
  let jsm: JetStreamManager;
  try {
    jsm = await jetstreamManager(nc, { timeout: options.timeoutMs ?? RELAY_CONNECT_TIMEOUT_MS });
  } catch (error) {
    await nc.close().catch(() => undefined);
    throw new RelayError('RELAY_NO_JETSTREAM', `The NATS server at ${config.url} has no JetStream (start it with -js): ${(error as Error).message}`);
  }
  const js = jetstream(nc, { timeout: options.timeoutMs ?? RELAY_CONNECT_TIMEOUT_MS });
  const kvm = new Kvm(js);
  const buckets = new Map<string, Promise<KV>>();
  let blobs: Promise<ObjectStore> | undefined;
  return {
    nc,
    js,
    jsm,
    kv: (bucket) => {
      let kv = buckets.get(bucket);
      if (!kv) {
        kv = kvm.open(bucket);
        buckets.set(bucket, kv);
        kv.catch(() => buckets.delete(bucket));
      }
      return kv;
    },
    blobs: () => (blobs ??= new Objm(js).open(BLOBS_STORE)),
    close: async () => {
      // A drain can wait forever on a connection the server dropped mid-way: bounded, then closed.
      let timer: NodeJS.Timeout | undefined;
      const bounded = new Promise<void>((resolve) => (timer = setTimeout(resolve, RELAY_CLOSE_TIMEOUT_MS)));
      await Promise.race([nc.drain().catch(() => undefined), bounded]);
      clearTimeout(timer);
      await nc.close().catch(() => undefined);
    },
  };
}

export interface RelayResourceOptions {
  /** The presence bucket's max_age when this call creates it (default PRESENCE_MAX_AGE_MS; tests lower it). */
  presenceMaxAgeMs?: number;
}

/** Creates every stream, bucket and object store Baton uses (idempotent: `relay connect` runs it). */
export async function ensureRelayResources(relay: Relay, options: RelayResourceOptions = {}): Promise<string[]> {
  const made: string[] = [];
  const streams: Record<string, { subjects: string[]; duplicate_window?: number }> = {
    [HANDOFF_STREAM]: { subjects: [`${HANDOFF_SUBJECT_PREFIX}.*.*`], duplicate_window: nanos(DUPLICATE_WINDOW_MS) },
    [EVENTS_STREAM]: { subjects: [`${EVENTS_SUBJECT_PREFIX}.>`] },
  };
  for (const name of ALL_STREAMS) {
    const exists = await relay.jsm.streams.info(name).then(() => true, () => false);
    if (!exists) {
      await relay.jsm.streams.add({ name, ...streams[name], retention: RetentionPolicy.Limits, storage: StorageType.File });
      made.push(name);
    }
  }
  const kvm = new Kvm(relay.js);
  const buckets: Record<string, { ttl?: number; history?: number }> = {
    [RECEIPTS_BUCKET]: {},
    [HEADS_BUCKET]: { history: 5 },
    [PAIRING_BUCKET]: { ttl: PAIRING_TTL_MS },
    [PRESENCE_BUCKET]: { ttl: options.presenceMaxAgeMs ?? PRESENCE_MAX_AGE_MS },
    [TASKS_BUCKET]: { history: 5 },
  };
  for (const [name, opts] of Object.entries(buckets)) {
    const exists = await relay.jsm.streams.info(`KV_${name}`).then(() => true, () => false);
    if (!exists) {
      await kvm.create(name, opts);
      made.push(name);
    }
  }
  const blobsExist = await relay.jsm.streams.info(`OBJ_${BLOBS_STORE}`).then(() => true, () => false);
  if (!blobsExist) {
    await new Objm(relay.js).create(BLOBS_STORE);
    made.push(BLOBS_STORE);
  }
  return made;
}

export interface RelayHealth {
  url: string;
  reachable: boolean;
  jetstream: boolean;
  missing: string[];
  rttMs: number | null;
  /** Server clock minus ours, from the server's INFO-less JetStream API time; null when unknown. */
  clockSkewMs: number | null;
  message: string;
}

/** What `relay status` and `baton doctor` report: reachable, JetStream enabled, resources present, clock skew. */
export async function checkRelayHealth(config: RelayConfig): Promise<RelayHealth> {
  const base = { url: config.url, reachable: false, jetstream: false, missing: [] as string[], rttMs: null, clockSkewMs: null };
  let relay: Relay;
  try {
    relay = await connectRelay(config);
  } catch (error) {
    const e = error as RelayError;
    return { ...base, reachable: e.code === 'RELAY_NO_JETSTREAM', message: e.message };
  }
  try {
    const rttMs = await relay.nc.rtt();
    const missing: string[] = [];
    for (const name of ALL_STREAMS) if (!(await relay.jsm.streams.info(name).then(() => true, () => false))) missing.push(name);
    for (const name of [RECEIPTS_BUCKET, HEADS_BUCKET, PAIRING_BUCKET, PRESENCE_BUCKET, TASKS_BUCKET]) {
      if (!(await relay.jsm.streams.info(`KV_${name}`).then(() => true, () => false))) missing.push(name);
    }
    if (!(await relay.jsm.streams.info(`OBJ_${BLOBS_STORE}`).then(() => true, () => false))) missing.push(BLOBS_STORE);
    const clockSkewMs = await measureClockSkew(relay, rttMs);
    const message = missing.length > 0 ? `Connected, but missing: ${missing.join(', ')} (run baton relay connect again).` : 'Connected; JetStream and every bucket present.';
    return { url: config.url, reachable: true, jetstream: true, missing, rttMs, clockSkewMs, message };
  } finally {
    await relay.close();
  }
}

/** The server stamps each stored message: publish one probe to the events stream and compare its time with ours. */
async function measureClockSkew(relay: Relay, rttMs: number): Promise<number | null> {
  try {
    const before = Date.now();
    const ack = await relay.js.publish(`${EVENTS_SUBJECT_PREFIX}.probe`, new Uint8Array(0));
    const stored = await relay.jsm.streams.getMessage(EVENTS_STREAM, { seq: ack.seq });
    await relay.jsm.streams.deleteMessage(EVENTS_STREAM, ack.seq).catch(() => undefined);
    if (!stored) return null;
    return Math.round(stored.time.getTime() - (before + rttMs / 2));
  } catch {
    return null;
  }
}
