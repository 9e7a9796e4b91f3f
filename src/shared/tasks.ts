import { z } from 'zod';
import { builtOnFirstUse } from './built-on-first-use.js';
import { isValidId } from './ids.js';

/**
 * Background tasks with leases (issue #6). An agent registers a task, renews its lease with a
 * heartbeat every TTL/3, and completes it once; the host shows its true state and delivers the
 * result exactly once. Declared here because the socket, the files and the UI share them.
 */
export const TASKS_SCHEMA_VERSION = 1;
export const DEFAULT_LEASE_TTL_MS = 30_000;
export const MIN_LEASE_TTL_MS = 300;
export const MAX_LEASE_TTL_MS = 24 * 3_600_000;
/** Last log lines kept with a failed or completed task. */
export const MAX_LOG_LINES = 50;
export const MAX_LOG_LINE_LENGTH = 2_000;
/** A result is a reference-sized payload, not an artifact. */
export const MAX_RESULT_BYTES = 64 * 1024;

const Id = builtOnFirstUse(() => z.string().refine(isValidId, 'expected an id of A-Z a-z 0-9 . _ - (max 128, no "..")'));

/** Heartbeats are due every TTL/3: two missed ones make a task stale, the expired lease orphans it. */
export function heartbeatIntervalMs(ttlMs: number): number {
  return Math.max(1, Math.floor(ttlMs / 3));
}

/** What is stored. `orphaned` is stored once observed, so the fence (epoch bump) is durable. */
export const StoredTaskState = builtOnFirstUse(() => z.enum(['running', 'orphaned', 'completed', 'failed']));
/** What is shown: `stale` is computed from the lease, never stored. */
export const TaskState = builtOnFirstUse(() => z.enum(['running', 'stale', 'orphaned', 'completed', 'failed']));
export type TaskState = z.infer<typeof TaskState>;

export const TaskOutcome = builtOnFirstUse(() => z.looseObject({
  exitCode: z.number().int().nullable(),
  lastLogLines: z.array(z.string().max(MAX_LOG_LINE_LENGTH)).max(MAX_LOG_LINES),
  /** Free-form JSON from the agent (bounded by MAX_RESULT_BYTES when sent). */
  result: z.unknown().optional(),
  /** Why it failed, when it did (terminated, orphaned, …). */
  reason: z.string().nullable(),
  finishedAt: z.string(),
}));
export type TaskOutcome = z.infer<typeof TaskOutcome>;

export const Delivery = builtOnFirstUse(() => z.looseObject({
  receipt: z.string(),
  clientId: Id,
  deliveredAt: z.string(),
}));
export type Delivery = z.infer<typeof Delivery>;

/** `<dataDir>/tasks/<taskId>.json` */
export const TaskRecord = builtOnFirstUse(() => z.looseObject({
  schemaVersion: z.number().int().positive(),
  id: Id,
  sessionId: Id.nullable(),
  kind: z.string(),
  command: z.string(),
  pid: z.number().int().positive().nullable(),
  /** Start time of `pid` when registered (Linux: /proc/<pid>/stat field 22), to refuse a reused pid. */
  pidStartTime: z.string().nullable(),
  port: z.number().int().nullable(),
  logPath: z.string().nullable(),
  recoverable: z.boolean(),
  state: StoredTaskState,
  /** Fencing token: writes stamped with an older epoch are refused. */
  epoch: z.number().int().positive(),
  leaseTtlMs: z.number().int().positive(),
  lastHeartbeatAt: z.string(),
  leaseExpiresAt: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Compare-and-swap counter. */
  revision: z.number().int().nonnegative(),
  /** sha256 of the registration payload: a retried register with the same id is recognised. */
  registrationSha256: z.string(),
  outcome: TaskOutcome.nullable(),
  /** The one delivery of the result (exactly once). */
  delivery: Delivery.nullable(),
}));
export type TaskRecord = z.infer<typeof TaskRecord>;

export const RegisterParams = builtOnFirstUse(() => z.looseObject({
  id: Id,
  sessionId: Id.nullable().optional(),
  kind: z.string().min(1).max(100),
  command: z.string().max(8_000),
  pid: z.number().int().positive().nullable().optional(),
  port: z.number().int().min(0).max(65_535).nullable().optional(),
  logPath: z.string().max(4_096).nullable().optional(),
  recoverable: z.boolean(),
  leaseTtlMs: z.number().int().min(MIN_LEASE_TTL_MS).max(MAX_LEASE_TTL_MS).optional(),
}));
export type RegisterParams = z.infer<typeof RegisterParams>;

export const HeartbeatParams = builtOnFirstUse(() => z.looseObject({
  id: Id,
  epoch: z.number().int().positive(),
  expectedRevision: z.number().int().nonnegative().optional(),
}));
export type HeartbeatParams = z.infer<typeof HeartbeatParams>;

export const CompleteParams = builtOnFirstUse(() => z.looseObject({
  id: Id,
  epoch: z.number().int().positive(),
  status: z.enum(['completed', 'failed']),
  exitCode: z.number().int().nullable().optional(),
  lastLogLines: z.array(z.string()).optional(),
  result: z.unknown().optional(),
  reason: z.string().max(2_000).nullable().optional(),
  expectedRevision: z.number().int().nonnegative().optional(),
}));
export type CompleteParams = z.infer<typeof CompleteParams>;

export const ResultParams = builtOnFirstUse(() => z.looseObject({ id: Id, clientId: Id }));
export type ResultParams = z.infer<typeof ResultParams>;

export const ListParams = builtOnFirstUse(() => z.looseObject({ sessionId: Id.optional() }));

/** A handoff-time recommendation for a task the target cannot simply keep running. */
export interface TaskRecommendation {
  action: 'terminate' | 'restart' | 'keep';
  prompt: string;
}

/** What the UI and `task.list` show: the record plus the state computed now. */
export interface TaskView {
  record: TaskRecord;
  state: TaskState;
  /** Milliseconds left on the lease (negative once expired); null when finished. */
  leaseRemainingMs: number | null;
  /** null when the task has no pid or this OS cannot tell. */
  processAlive: boolean | null;
}

export const TaskErrorCode = {
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  /** A write stamped with an older epoch: the task was orphaned, terminated or taken over. */
  STALE_EPOCH: 'STALE_EPOCH',
  /** The task is finished; no more heartbeats. */
  FINISHED: 'FINISHED',
  /** Result asked for a task that has none yet. */
  NOT_FINISHED: 'NOT_FINISHED',
  CONFIRMATION_REQUIRED: 'CONFIRMATION_REQUIRED',
  /** The pid now belongs to another process (or none): nothing is signalled. */
  PID_MISMATCH: 'PID_MISMATCH',
  UNSUPPORTED: 'UNSUPPORTED',
  BAD_REQUEST: 'BAD_REQUEST',
  IO_ERROR: 'IO_ERROR',
  DAMAGED: 'DAMAGED',
} as const;
export type TaskErrorCode = (typeof TaskErrorCode)[keyof typeof TaskErrorCode];
