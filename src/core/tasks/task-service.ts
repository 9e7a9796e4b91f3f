import { createHash, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { open } from 'node:fs/promises';
import {
  CompleteParams,
  HeartbeatParams,
  ListParams,
  MAX_LOG_LINES,
  MAX_LOG_LINE_LENGTH,
  MAX_RESULT_BYTES,
  DEFAULT_LEASE_TTL_MS,
  RegisterParams,
  ResultParams,
  TASKS_SCHEMA_VERSION,
  heartbeatIntervalMs,
  type TaskRecommendation,
  type TaskRecord,
  type TaskView,
} from '../../shared/tasks.js';
import { canonicalJson } from '../hash.js';
import type { Answer, IncomingRequest, RequestHandler } from '../transport/types.js';
import { TaskError } from './errors.js';
import { KeyedMutex } from './keyed-mutex.js';
import { stateAt } from './lease.js';
import { canCheckStartTime, processStartTime } from './process-start-time.js';
import { TaskFiles } from './task-files.js';

/**
 * Background tasks with leases (issue #6). The files are the truth: every read goes to disk, so
 * a deleted state is reported as missing (never as an empty success) and the UI never shows
 * "running" for a task whose lease has expired. Writes are compare-and-swap on `revision` under
 * a per-task lock, and fenced by `epoch`: once a task is orphaned or terminated its epoch moves
 * on, and the old agent's writes are refused with an instruction to stop.
 */
export interface TaskServiceOptions {
  dataDir: string;
  /** How often expired leases are looked for and recorded as orphaned; 0 disables the sweep. */
  sweepIntervalMs?: number;
}

export type TaskEvent = { type: 'registered' | 'changed'; view: TaskView };

export interface TerminateOptions {
  /** The person confirmed; nothing is signalled without it. */
  confirmed: true;
  signal?: NodeJS.Signals;
}

export interface HandoffTask {
  view: TaskView;
  recommendation: TaskRecommendation;
}

export interface TaskService {
  readonly methods: Record<string, RequestHandler>;
  list(filter?: { sessionId?: string }): Promise<TaskView[]>;
  get(id: string): Promise<TaskView>;
  /** Signals the task's process only if its start time still matches the registered one. */
  terminate(id: string, options: TerminateOptions): Promise<TaskView>;
  /** Every unfinished task of a session with what to do about it; none is dropped. */
  forHandoff(sessionId: string): Promise<HandoffTask[]>;
  /** Deletes the records of finished tasks (completed or failed); returns their ids. Running ones stay. */
  clearFinished(): Promise<string[]>;
  /** The end of a task's log file (at most TASK_LOG_VIEW_MAX_BYTES), for "Open log". */
  readLog(id: string): Promise<TaskLogView>;
  /** Records orphaned tasks now (the sweep calls this). Returns the ids it orphaned. */
  sweep(): Promise<string[]>;
  onChange(listener: (event: TaskEvent) => void): () => void;
  close(): Promise<void>;
}

export const DEFAULT_SWEEP_INTERVAL_MS = 1_000;
/** Bytes of a task's log the UI is sent: its end, where a dev server says what went wrong. */
export const TASK_LOG_VIEW_MAX_BYTES = 64 * 1024;

export interface TaskLogView {
  path: string;
  text: string;
  /** Size of the whole log file. */
  bytes: number;
  shownBytes: number;
}

function sha256(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

function trimLines(lines: readonly string[] | undefined): string[] {
  return (lines ?? []).slice(-MAX_LOG_LINES).map((l) => (l.length > MAX_LOG_LINE_LENGTH ? `${l.slice(0, MAX_LOG_LINE_LENGTH - 1)}…` : l));
}

// Answers never use the keys `id` or `type`: the wire envelope owns them (the client strips them).
function failure(error: unknown): Answer {
  if (error instanceof TaskError) return { ok: false, code: error.code, message: error.message, ...error.details };
  return { ok: false, code: 'INTERNAL', message: (error as Error).message };
}

function parse<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } } }, params: unknown, method: string): T {
  const r = schema.safeParse(params);
  if (!r.success) {
    throw new TaskError('BAD_REQUEST', `${method}: ${r.error.issues.map((i) => `${i.path.map(String).join('.') || '(params)'}: ${i.message}`).join('; ')}`, method);
  }
  return r.data;
}

export function createTaskService(options: TaskServiceOptions): TaskService {
  const files = new TaskFiles(options.dataDir);
  const mutex = new KeyedMutex();
  const emitter = new EventEmitter();
  let closed = false;

  async function viewOf(record: TaskRecord, now = Date.now()): Promise<TaskView> {
    let { state, leaseRemainingMs } = stateAt(record, now);
    let processAlive: boolean | null = null;
    if (record.pid !== null && record.pidStartTime !== null && canCheckStartTime()) {
      processAlive = (await processStartTime(record.pid)) === record.pidStartTime;
      // A dead process is never shown as running, even while its lease lasts.
      if (!processAlive && state === 'running') state = 'stale';
    }
    return { record, state, leaseRemainingMs, processAlive };
  }

  const emit = (type: TaskEvent['type'], view: TaskView): void => void emitter.emit('change', { type, view });

  /** Read → check → mutate → write, one writer per task at a time; CONFLICT on a stale revision. */
  function update(id: string, expectedRevision: number | undefined, mutate: (current: TaskRecord, now: number) => TaskRecord | null): Promise<TaskRecord> {
    return mutex.run(id, async () => {
      const current = await files.read(id);
      if (expectedRevision !== undefined && current.revision !== expectedRevision) {
        throw new TaskError('CONFLICT', `task ${id} changed since revision ${expectedRevision} (now ${current.revision}, ${current.state}); read it again and retry`, id, {
          revision: current.revision,
          state: stateAt(current, Date.now()).state,
        });
      }
      const now = Date.now();
      const next = mutate(current, now);
      if (next === null) return current;
      const written = { ...next, revision: current.revision + 1, updatedAt: new Date(now).toISOString() };
      await files.write(written);
      void viewOf(written).then((v) => emit('changed', v));
      return written;
    });
  }

  /** The fence: an expired lease is recorded as orphaned and the epoch moves on. */
  function orphaned(record: TaskRecord, now: number): TaskRecord {
    return {
      ...record,
      state: 'orphaned',
      epoch: record.epoch + 1,
      outcome: null,
      leaseExpiresAt: record.leaseExpiresAt,
      updatedAt: new Date(now).toISOString(),
    };
  }

  function stop(id: string, record: TaskRecord, why: string): TaskError {
    const code = record.state === 'completed' || record.state === 'failed' ? 'FINISHED' : 'STALE_EPOCH';
    return new TaskError(code, `task ${id} ${why}: stop working on it`, id, { stop: true, state: record.state, epoch: record.epoch, revision: record.revision });
  }

  async function register(params: unknown): Promise<Answer> {
    const p = parse(RegisterParams, params, 'task.register');
    const registrationSha256 = sha256(p);
    let pidStartTime: string | null = null;
    if (p.pid != null) {
      pidStartTime = await processStartTime(p.pid);
      if (pidStartTime === null && process.platform === 'linux') {
        throw new TaskError('BAD_REQUEST', `task.register: process ${p.pid} is not running on this machine`, p.id);
      }
    }
    const now = Date.now();
    const ttl = p.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
    const record: TaskRecord = {
      schemaVersion: TASKS_SCHEMA_VERSION,
      id: p.id,
      sessionId: p.sessionId ?? null,
      kind: p.kind,
      command: p.command,
      pid: p.pid ?? null,
      pidStartTime,
      port: p.port ?? null,
      logPath: p.logPath ?? null,
      recoverable: p.recoverable,
      state: 'running',
      epoch: 1,
      leaseTtlMs: ttl,
      lastHeartbeatAt: new Date(now).toISOString(),
      leaseExpiresAt: new Date(now + ttl).toISOString(),
      createdAt: new Date(now).toISOString(),
      updatedAt: new Date(now).toISOString(),
      revision: 0,
      registrationSha256,
      outcome: null,
      delivery: null,
    };
    // Acknowledged only after the file and its directory entry are fsynced (createFileAtomic).
    const created = await mutex.run(p.id, () => files.create(record));
    const stored = created ? record : await files.read(p.id);
    if (!created && stored.registrationSha256 !== registrationSha256) {
      throw new TaskError('CONFLICT', `task id ${p.id} is already registered for another command; use a fresh id`, p.id);
    }
    const view = await viewOf(stored);
    if (created) emit('registered', view);
    return { ok: true, duplicate: !created, taskId: stored.id, epoch: stored.epoch, revision: stored.revision, leaseTtlMs: stored.leaseTtlMs, heartbeatEveryMs: heartbeatIntervalMs(stored.leaseTtlMs), state: view.state };
  }

  async function heartbeat(params: unknown): Promise<Answer> {
    const p = parse(HeartbeatParams, params, 'task.heartbeat');
    let refusal: TaskError | null = null;
    const record = await update(p.id, p.expectedRevision, (current, now) => {
      if (current.state === 'completed' || current.state === 'failed') {
        refusal = stop(p.id, current, `is already ${current.state}`);
        return null;
      }
      if (current.epoch !== p.epoch) {
        refusal = stop(p.id, current, `moved on to epoch ${current.epoch} (orphaned, terminated or taken over); epoch ${p.epoch} is no longer valid`);
        return null;
      }
      if (stateAt(current, now).state === 'orphaned') {
        const fenced = orphaned(current, now);
        refusal = stop(p.id, fenced, `lost its lease at ${current.leaseExpiresAt} and is orphaned`);
        return fenced;
      }
      return { ...current, lastHeartbeatAt: new Date(now).toISOString(), leaseExpiresAt: new Date(now + current.leaseTtlMs).toISOString() };
    });
    if (refusal) throw refusal;
    return { ok: true, stop: false, taskId: record.id, epoch: record.epoch, revision: record.revision, leaseExpiresAt: record.leaseExpiresAt, heartbeatEveryMs: heartbeatIntervalMs(record.leaseTtlMs) };
  }

  async function complete(params: unknown): Promise<Answer> {
    const p = parse(CompleteParams, params, 'task.complete');
    if (p.result !== undefined && Buffer.byteLength(JSON.stringify(p.result) ?? '') > MAX_RESULT_BYTES) {
      throw new TaskError('BAD_REQUEST', `task.complete: the result of ${p.id} is over ${MAX_RESULT_BYTES} bytes; store it in a file and send its path`, p.id);
    }
    const outcome = { exitCode: p.exitCode ?? null, lastLogLines: trimLines(p.lastLogLines), result: p.result, reason: p.reason ?? null };
    const outcomeSha = sha256({ status: p.status, ...outcome });
    let duplicate = false;
    let refusal: TaskError | null = null;
    const record = await update(p.id, p.expectedRevision, (current, now) => {
      if (current.state === 'completed' || current.state === 'failed') {
        const same = current.outcome !== null && sha256({ status: current.state, exitCode: current.outcome.exitCode, lastLogLines: current.outcome.lastLogLines, result: current.outcome.result, reason: current.outcome.reason }) === outcomeSha;
        if (same && current.epoch === p.epoch) duplicate = true; // a retried complete: same answer
        else refusal = new TaskError('CONFLICT', `task ${p.id} was already ${current.state} with another outcome at ${current.outcome?.finishedAt}; the first outcome stands`, p.id, { state: current.state, revision: current.revision });
        return null;
      }
      if (current.epoch !== p.epoch) {
        refusal = stop(p.id, current, `moved on to epoch ${current.epoch}; a write with epoch ${p.epoch} is refused`);
        return null;
      }
      if (stateAt(current, now).state === 'orphaned') {
        const fenced = orphaned(current, now);
        refusal = stop(p.id, fenced, `lost its lease at ${current.leaseExpiresAt}; its outcome was not recorded`);
        return fenced;
      }
      return { ...current, state: p.status, outcome: { ...outcome, finishedAt: new Date(now).toISOString() } };
    });
    if (refusal) throw refusal;
    return { ok: true, duplicate, taskId: record.id, state: record.state, revision: record.revision };
  }

  async function result(params: unknown): Promise<Answer> {
    const p = parse(ResultParams, params, 'task.result');
    let first = false;
    const record = await update(p.id, undefined, (current, now) => {
      if (current.state !== 'completed' && current.state !== 'failed') {
        const state = stateAt(current, now).state;
        throw new TaskError('NOT_FINISHED', `task ${p.id} has no result yet: it is ${state}`, p.id, { state });
      }
      if (current.delivery) return null;
      first = true;
      return { ...current, delivery: { receipt: `rcpt-${randomBytes(12).toString('hex')}`, clientId: p.clientId, deliveredAt: new Date(now).toISOString() } };
    });
    const delivery = record.delivery!;
    return {
      ok: true,
      taskId: record.id,
      state: record.state,
      outcome: record.outcome,
      receipt: delivery.receipt,
      deliveredTo: delivery.clientId,
      deliveredAt: delivery.deliveredAt,
      // Act on a result only when firstDelivery is true, or when deliveredTo is you (your own retry).
      firstDelivery: first,
    };
  }

  async function listViews(filter: { sessionId?: string } = {}): Promise<TaskView[]> {
    const views: TaskView[] = [];
    for (const id of await files.ids()) {
      try {
        const record = await files.read(id);
        if (filter.sessionId === undefined || record.sessionId === filter.sessionId) views.push(await viewOf(record));
      } catch (error) {
        if (!(error instanceof TaskError && error.code === 'NOT_FOUND')) throw error; // deleted between readdir and read
      }
    }
    return views.sort((a, b) => a.record.createdAt.localeCompare(b.record.createdAt));
  }

  async function sweep(): Promise<string[]> {
    const done: string[] = [];
    for (const view of await listViews()) {
      if (view.record.state !== 'running' || view.state !== 'orphaned') continue;
      try {
        await update(view.record.id, undefined, (current, now) => (current.state === 'running' && stateAt(current, now).state === 'orphaned' ? orphaned(current, now) : null));
        done.push(view.record.id);
      } catch {
        // Deleted or damaged meanwhile: the next read reports it.
      }
    }
    return done;
  }

  const timer = (options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS) > 0 ? setInterval(() => void sweep().catch(() => undefined), options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS) : null;
  timer?.unref();

  const wrap = (fn: (params: unknown) => Promise<Answer>): RequestHandler => async (request: IncomingRequest) => {
    if (closed) return { ok: false, code: 'CLOSED', message: 'Baton is shutting down; nothing was recorded' };
    try {
      return await fn(request.params);
    } catch (error) {
      return failure(error);
    }
  };

  return {
    methods: {
      'task.register': wrap(register),
      'task.heartbeat': wrap(heartbeat),
      'task.complete': wrap(complete),
      'task.result': wrap(result),
      'task.get': wrap(async (params) => {
        const id = (params as { id?: unknown } | null)?.id;
        if (typeof id !== 'string') throw new TaskError('BAD_REQUEST', 'task.get needs an id', 'task.get');
        return { ok: true, task: await viewOf(await files.read(id)) };
      }),
      'task.list': wrap(async (params) => ({ ok: true, tasks: await listViews(parse(ListParams, params ?? {}, 'task.list')) })),
    },
    list: listViews,
    async get(id) {
      return viewOf(await files.read(id));
    },
    async terminate(id, opts) {
      if (opts?.confirmed !== true) throw new TaskError('CONFIRMATION_REQUIRED', `terminating task ${id} needs a confirmation`, id);
      const record = await update(id, undefined, (current, now) => {
        if (current.state === 'completed' || current.state === 'failed') throw new TaskError('FINISHED', `task ${id} is already ${current.state}; nothing to terminate`, id);
        return current.pid === null ? null : { ...current, updatedAt: new Date(now).toISOString() };
      });
      if (record.pid === null) throw new TaskError('BAD_REQUEST', `task ${id} registered no pid; stop it where it runs`, id);
      if (record.pidStartTime === null || !canCheckStartTime()) {
        throw new TaskError('UNSUPPORTED', `Baton cannot verify which process pid ${record.pid} is on ${process.platform}; stop task ${id} by hand`, id);
      }
      const now = await processStartTime(record.pid);
      if (now !== record.pidStartTime) {
        throw new TaskError('PID_MISMATCH', now === null ? `process ${record.pid} of task ${id} is no longer running; nothing was signalled` : `pid ${record.pid} now belongs to another process (start time changed); nothing was signalled`, id);
      }
      process.kill(record.pid, opts.signal ?? 'SIGTERM');
      const finished = await update(id, undefined, (current, at) => ({
        ...current,
        state: 'failed',
        epoch: current.epoch + 1,
        outcome: { exitCode: null, lastLogLines: [], reason: `terminated by the user (${opts.signal ?? 'SIGTERM'})`, finishedAt: new Date(at).toISOString() },
      }));
      return viewOf(finished);
    },
    async forHandoff(sessionId) {
      const out: HandoffTask[] = [];
      for (const view of await listViews({ sessionId })) {
        const r = view.record;
        const what = `Task ${r.id} (${r.kind}: ${r.command})`;
        let recommendation: TaskRecommendation;
        if (view.state === 'completed' || view.state === 'failed') recommendation = { action: 'keep', prompt: `${what} is ${view.state}; its result stays available` };
        else if (view.state === 'orphaned') recommendation = { action: 'restart', prompt: `${what} lost its agent (lease expired); restart it on this side, or terminate what is left of it` };
        else if (r.recoverable) recommendation = { action: 'keep', prompt: `${what} keeps running; its agent continues with its lease` };
        else recommendation = { action: 'terminate', prompt: `${what} cannot move with the session; terminate it, or restart it here after the handoff` };
        out.push({ view, recommendation });
      }
      return out;
    },
    async clearFinished() {
      const cleared: string[] = [];
      for (const view of await listViews()) {
        const id = view.record.id;
        await mutex.run(id, async () => {
          // Read again under the lock: a task that changed since the list is judged as it is now.
          const current = await files.read(id).catch(() => null);
          if (current === null || (current.state !== 'completed' && current.state !== 'failed')) return;
          await files.remove(id);
          cleared.push(id);
        });
      }
      return cleared;
    },
    async readLog(id) {
      const record = await files.read(id);
      if (record.logPath === null) throw new TaskError('NOT_FOUND', `task ${id} registered no log file`, id);
      const path = record.logPath;
      let handle;
      try {
        handle = await open(path, 'r');
        const stat = await handle.stat();
        if (!stat.isFile()) throw new TaskError('BAD_REQUEST', `the log of task ${id}, ${path}, is not a regular file`, id);
        const shown = Math.min(stat.size, TASK_LOG_VIEW_MAX_BYTES);
        const buffer = Buffer.alloc(shown);
        await handle.read(buffer, 0, shown, stat.size - shown);
        return { path, text: buffer.toString('utf8'), bytes: stat.size, shownBytes: shown };
      } catch (error) {
        if (error instanceof TaskError) throw error;
        const code = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'NOT_FOUND' : 'IO_ERROR';
        throw new TaskError(code, `cannot read the log of task ${id}, ${path}: ${(error as Error).message}`, id, {}, { cause: error });
      } finally {
        await handle?.close();
      }
    },
    sweep,
    onChange(listener) {
      emitter.on('change', listener);
      return () => emitter.off('change', listener);
    },
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      emitter.removeAllListeners();
    },
  };
}
