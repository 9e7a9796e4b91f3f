import { KvWatchInclude } from '@nats-io/kv';
import { newId } from '../../shared/ids.js';
import type { DeviceIdentity, PublicDevice } from '../crypto/identity.js';
import type { PairedDevice } from '../crypto/peers.js';
import type { Relay } from './connection.js';
import { openFrom, sealFor } from './handoff-envelope.js';
import { TASKS_BUCKET } from './resources.js';

/**
 * Tasks across devices (issue 13, the two-terminal scenario over a relay). Each task is one key in
 * the `baton_tasks` bucket; every state change is a compare-and-set on its KV revision. What the
 * task runs and what it produced are sealed for the device that asked; the relay sees ids, states,
 * epochs and lease times only. Watches tell every device about changes.
 */
export const RELAY_TASK_SEALED = { spec: 'task-spec', outcome: 'task-outcome' } as const;

export type RelayTaskState = 'running' | 'orphaned' | 'completed' | 'failed';

export interface RelayTaskRecord {
  v: 1;
  id: string;
  /** The device that asked: only it can read the spec and the result, and the result goes to it once. */
  asker: string;
  state: RelayTaskState;
  /** Fencing token: a write stamped with another epoch is refused. */
  epoch: number;
  leaseTtlMs: number;
  leaseExpiresAt: string;
  spec: string;
  outcome: string | null;
  delivery: { receipt: string; deliveredAt: string } | null;
  updatedAt: string;
}

export interface TaskOutcomeInput {
  status: 'completed' | 'failed';
  exitCode: number | null;
  result?: unknown;
  reason?: string | null;
}

export class RelayTaskError extends Error {
  constructor(
    readonly code: 'NOT_FOUND' | 'CONFLICT' | 'STALE_EPOCH' | 'ORPHANED' | 'FINISHED' | 'NOT_ASKER' | 'NOT_FINISHED' | 'UNTRUSTED',
    message: string,
    /** True when the agent must stop working on the task. */
    readonly stop = false,
  ) {
    super(message);
  }
}

interface Loaded {
  record: RelayTaskRecord;
  revision: number;
}

function expired(record: RelayTaskRecord, now: number): boolean {
  return record.state === 'running' && Date.parse(record.leaseExpiresAt) <= now;
}

/** The state as shown: a running task whose lease ran out is orphaned even before anyone recorded it. */
export function shownState(record: RelayTaskRecord, now = Date.now()): RelayTaskState {
  return expired(record, now) ? 'orphaned' : record.state;
}

export interface RelayTasks {
  register(input: { id?: string; command: string; kind?: string; leaseTtlMs: number }): Promise<{ taskId: string; epoch: number; duplicate: boolean }>;
  heartbeat(id: string, epoch: number): Promise<{ leaseExpiresAt: string }>;
  complete(id: string, epoch: number, outcome: TaskOutcomeInput): Promise<{ state: RelayTaskState }>;
  /** For the asking device: the outcome, delivered once with a receipt (a repeat returns the same receipt). */
  result(id: string): Promise<{ state: RelayTaskState; outcome: TaskOutcomeInput; receipt: string; firstDelivery: boolean }>;
  view(id: string): Promise<{ id: string; state: RelayTaskState; epoch: number; asker: string; leaseExpiresAt: string }>;
  /** Calls back on every change of any task (from any device); returns a stop function. */
  watch(onChange: (change: { id: string; state: RelayTaskState | 'deleted' }) => void): Promise<() => void>;
}

export function relayTasks(relay: Relay, me: DeviceIdentity, peers: () => Promise<PairedDevice[]>): RelayTasks {
  const kv = () => relay.kv(TASKS_BUCKET);

  async function load(id: string): Promise<Loaded> {
    const entry = await (await kv()).get(id);
    if (!entry || entry.operation !== 'PUT') throw new RelayTaskError('NOT_FOUND', `No task ${id} on the relay (it was never registered, or its state was deleted).`);
    return { record: entry.json<RelayTaskRecord>(), revision: entry.revision };
  }

  /** Compare-and-set; a lost race is a CONFLICT for the caller, never a silent overwrite. */
  async function write(record: RelayTaskRecord, revision: number): Promise<void> {
    try {
      await (await kv()).update(record.id, JSON.stringify({ ...record, updatedAt: new Date().toISOString() }), revision);
    } catch (error) {
      if (/wrong last sequence/i.test((error as Error).message)) {
        const now = await load(record.id).catch(() => null);
        throw new RelayTaskError('CONFLICT', `Task ${record.id} changed meanwhile${now ? ` (now ${now.record.state}, epoch ${now.record.epoch})` : ''}; nothing was written.`);
      }
      throw error;
    }
  }

  async function askerDevice(record: RelayTaskRecord): Promise<PublicDevice> {
    if (record.asker === me.deviceId) return me;
    const peer = (await peers()).find((p) => p.deviceId === record.asker);
    if (!peer) throw new RelayTaskError('UNTRUSTED', `Task ${record.id} was asked by ${record.asker}, which is not a paired device.`);
    return peer;
  }

  /** A running task whose lease expired is fenced: recorded orphaned with a new epoch, so the old holder's writes fail. */
  async function fenceIfExpired(loaded: Loaded): Promise<Loaded> {
    if (!expired(loaded.record, Date.now())) return loaded;
    const fenced = { ...loaded.record, state: 'orphaned' as const, epoch: loaded.record.epoch + 1 };
    await write(fenced, loaded.revision).catch(() => undefined); // someone else fenced it first: same result
    return load(loaded.record.id);
  }

  function checkWriter(record: RelayTaskRecord, epoch: number): void {
    if (record.state === 'orphaned') throw new RelayTaskError('ORPHANED', `Task ${record.id} is orphaned (its lease expired): stop working on it.`, true);
    if (record.state !== 'running') throw new RelayTaskError('FINISHED', `Task ${record.id} is already ${record.state}.`, true);
    if (record.epoch !== epoch) throw new RelayTaskError('STALE_EPOCH', `Task ${record.id} is at epoch ${record.epoch}, not ${epoch}: stop working on it.`, true);
  }

  return {
    async register(input) {
      const id = input.id ?? newId('task-');
      const now = Date.now();
      const record: RelayTaskRecord = {
        v: 1,
        id,
        asker: me.deviceId,
        state: 'running',
        epoch: 1,
        leaseTtlMs: input.leaseTtlMs,
        leaseExpiresAt: new Date(now + input.leaseTtlMs).toISOString(),
        spec: sealFor(me, me, RELAY_TASK_SEALED.spec, id, { command: input.command, kind: input.kind ?? 'process' }).toString('base64'),
        outcome: null,
        delivery: null,
        updatedAt: new Date(now).toISOString(),
      };
      try {
        await (await kv()).create(id, JSON.stringify(record));
        return { taskId: id, epoch: 1, duplicate: false };
      } catch {
        const existing = await load(id);
        if (existing.record.asker !== me.deviceId) throw new RelayTaskError('CONFLICT', `Task id ${id} is taken by device ${existing.record.asker}.`);
        return { taskId: id, epoch: existing.record.epoch, duplicate: true };
      }
    },

    async heartbeat(id, epoch) {
      const loaded = await fenceIfExpired(await load(id));
      checkWriter(loaded.record, epoch);
      const leaseExpiresAt = new Date(Date.now() + loaded.record.leaseTtlMs).toISOString();
      await write({ ...loaded.record, leaseExpiresAt }, loaded.revision);
      return { leaseExpiresAt };
    },

    async complete(id, epoch, outcome) {
      const loaded = await fenceIfExpired(await load(id));
      checkWriter(loaded.record, epoch);
      const sealed = sealFor(me, await askerDevice(loaded.record), RELAY_TASK_SEALED.outcome, id, { ...outcome, finishedAt: new Date().toISOString() }).toString('base64');
      await write({ ...loaded.record, state: outcome.status, outcome: sealed }, loaded.revision);
      return { state: outcome.status };
    },

    async result(id) {
      const loaded = await fenceIfExpired(await load(id));
      const { record } = loaded;
      if (record.asker !== me.deviceId) throw new RelayTaskError('NOT_ASKER', `Task ${id} belongs to device ${record.asker}; its result goes only there.`);
      if (record.state === 'running' || !record.outcome) {
        if (record.state === 'orphaned') throw new RelayTaskError('ORPHANED', `Task ${id} is orphaned: its lease expired without a result.`);
        throw new RelayTaskError('NOT_FINISHED', `Task ${id} is still running.`);
      }
      // Completed by a paired device, or by this one.
      const trusted = [...(await peers()), { ...me, fingerprint: '', pairedAt: '' }];
      const opened = openFrom(me, trusted, Buffer.from(record.outcome, 'base64'), RELAY_TASK_SEALED.outcome, id);
      if (!opened.ok) throw new RelayTaskError('UNTRUSTED', `The result of task ${id} could not be trusted (${opened.code}).`);
      const outcome = opened.value as TaskOutcomeInput;
      if (record.delivery) return { state: record.state, outcome, receipt: record.delivery.receipt, firstDelivery: false };
      const delivery = { receipt: newId('r-'), deliveredAt: new Date().toISOString() };
      try {
        await write({ ...record, delivery }, loaded.revision);
      } catch (error) {
        // Another reader on this device recorded the delivery first: answer with its receipt.
        const again = await load(id);
        if (again.record.delivery) return { state: record.state, outcome, receipt: again.record.delivery.receipt, firstDelivery: false };
        throw error;
      }
      return { state: record.state, outcome, receipt: delivery.receipt, firstDelivery: true };
    },

    async view(id) {
      const { record } = await load(id);
      return { id, state: shownState(record), epoch: record.epoch, asker: record.asker, leaseExpiresAt: record.leaseExpiresAt };
    },

    async watch(onChange) {
      const iterator = await (await kv()).watch({ include: KvWatchInclude.UpdatesOnly });
      void (async () => {
        for await (const entry of iterator) {
          if (entry.operation !== 'PUT') onChange({ id: entry.key, state: 'deleted' });
          else onChange({ id: entry.key, state: shownState(entry.json<RelayTaskRecord>()) });
        }
      })().catch(() => undefined);
      return () => iterator.stop();
    },
  };
}
