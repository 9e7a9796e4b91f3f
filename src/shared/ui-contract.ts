import { z } from 'zod';
import { IndexRow, SessionDoc } from './session.js';
import { MessageRecord } from './message.js';
import { ApprovalViewSchema, DecideParams, Grant } from './approvals.js';
import { TaskRecord, TaskState } from './tasks.js';
import { AgentListRequest, AgentScan, TerminalCommand } from './agents.js';
import { CarriedTaskView } from './carried-tasks.js';
import { preferenceChannels } from './preferences.js';
import { lifecycleChannels } from './lifecycle-contract.js';
import { lockChannels } from './lock-contract.js';
import { ComposerStatus, RunEvent, RunState, SendRequest } from './agent-run.js';
import { SessionDoc as SessionDocSchema } from './session.js';
import { DiffFileList, FileDiff, RehydrateRequest, RehydrateResult, RehydrationPlan, WorkspaceVerification } from './workspace.js';

/**
 * The UI contract (ARCHITECTURE.md §7): every request channel and every event, declared once.
 * The Electron host binds it with ipcMain.handle, the browser host with WebSocket messages;
 * the renderer never knows which one it talks to.
 */
export const HandlerError = z.object({ code: z.string(), message: z.string() });
export type HandlerError = z.infer<typeof HandlerError>;

export const HandlerResult = <T extends z.ZodType>(value: T) =>
  z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), value }), z.object({ ok: z.literal(false), error: HandlerError })]);

export const SessionDetail = z.object({
  session: SessionDoc,
  messages: z.array(MessageRecord),
  /** True when only the newest messages were sent (the log is longer than the UI page). */
  truncated: z.boolean(),
});
export type SessionDetail = z.infer<typeof SessionDetail>;

/** Messages per page of the conversation (session:get sends the newest page, session:messages the others). */
export const MESSAGE_PAGE_SIZE = 200;
/** Largest page session:messages answers. */
export const MESSAGE_PAGE_MAX = 1_000;

/**
 * A page of a session's messages, read by seq offset (never the whole log): `beforeSeq` gives the
 * `limit` messages before it (an older page), `afterSeq` the `limit` after it (a newer page or a
 * jump to a search hit). Exactly one of the two.
 */
export const MessagePageRequest = z
  .object({
    id: z.string(),
    beforeSeq: z.number().int().nonnegative().optional(),
    afterSeq: z.number().int().min(-1).optional(),
    limit: z.number().int().positive().max(MESSAGE_PAGE_MAX),
  })
  .refine((r) => (r.beforeSeq === undefined) !== (r.afterSeq === undefined), { message: 'give exactly one of beforeSeq and afterSeq' });
export type MessagePageRequest = z.infer<typeof MessagePageRequest>;

/** Longest search query accepted. */
export const SEARCH_QUERY_MAX_CHARS = 200;
export const SearchHit = z.object({
  sessionId: z.string(),
  title: z.string(),
  cwd: z.string(),
  seq: z.number().int(),
  snippet: z.string(),
  /** A Claude Code / Codex session not in Baton yet, found by its title: sessionId is its candidate row id. */
  source: z.enum(['claude', 'codex']).optional(),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const HostInfo = z.object({
  host: z.enum(['electron', 'browser']),
  version: z.string(),
  dataDir: z.string(),
  endpoint: z.string(),
  /** Encryption at rest of the store this host serves (issue 17): shown once, in the footer. */
  encryption: z.object({ state: z.enum(['on', 'off']), detail: z.string() }).optional(),
});
export type HostInfo = z.infer<typeof HostInfo>;

/** The handoff figures `baton stats` prints, for the UI. */
export const HandoffStatsView = z.object({
  total: z.number().int(),
  succeeded: z.number().int(),
  successRate: z.number().nullable(),
  byCategory: z.record(z.string(), z.number().int()),
  totalMs: z.object({ p50: z.number().nullable(), p95: z.number().nullable() }),
  /** Durations of sessions after an accepted handoff, until the next handoff, a resume or the last activity. */
  afterResumption: z.object({
    count: z.number().int(),
    p50: z.number().nullable(),
    p95: z.number().nullable(),
    max: z.number().nullable(),
    byEnd: z.record(z.string(), z.number().int()),
    buckets: z.array(z.object({ label: z.string(), count: z.number().int() })),
  }),
  /** Offers this host refused because the disk disagreed with the manifest. */
  verifyMismatches: z.number().int(),
});
export type HandoffStatsView = z.infer<typeof HandoffStatsView>;

export { ApprovalViewSchema };
/** Largest part of a full tool output sent to a window at once; the artifact itself keeps it all. */
export const FULL_OUTPUT_VIEW_MAX_BYTES = 8 * 1024 * 1024;

/** A handoff whose manifest disagreed with the disk at this host (events.jsonl `verify_mismatch`). */
export const HandoffAlert = z.object({
  at: z.string(),
  sessionId: z.string(),
  handoffId: z.string(),
  fields: z.array(z.string()),
  message: z.string(),
});
export type HandoffAlert = z.infer<typeof HandoffAlert>;
/** The relay as this host sees it (issue 13): off unless configured. */
export const RelayStatusView = z.object({
  configured: z.boolean(),
  state: z.enum(['off', 'connecting', 'online', 'error']),
  url: z.string().nullable(),
  error: z.string().nullable(),
  device: z.object({ deviceId: z.string(), name: z.string(), fingerprint: z.string() }).nullable(),
  received: z.object({ accepted: z.number().int(), duplicate: z.number().int(), rejected: z.number().int(), dropped: z.record(z.string(), z.number().int()) }).nullable(),
});
export type RelayStatusView = z.infer<typeof RelayStatusView>;

/** A paired device; `online` from the relay's presence bucket (null when the relay is not reachable). */
export const DeviceView = z.object({ deviceId: z.string(), name: z.string(), fingerprint: z.string(), pairedAt: z.string(), online: z.boolean().nullable() });
export type DeviceView = z.infer<typeof DeviceView>;
export const TaskViewSchema = z.object({
  record: TaskRecord,
  state: TaskState,
  leaseRemainingMs: z.number().nullable(),
  processAlive: z.boolean().nullable(),
});
export const HandoffTaskSchema = z.object({
  view: TaskViewSchema,
  recommendation: z.object({ action: z.enum(['terminate', 'restart', 'keep']), prompt: z.string() }),
});

export const uiChannels = {
  'host:info': { request: z.object({}), response: HostInfo },
  'sessions:list': { request: z.object({ includeArchived: z.boolean().optional() }), response: z.array(IndexRow) },
  'session:get': { request: z.object({ id: z.string() }), response: SessionDetail },
  'session:messages': { request: MessagePageRequest, response: z.object({ messages: z.array(MessageRecord) }) },
  /** What was said, across Baton's sessions: the host's full-text index (src/core/search). */
  'search:messages': {
    request: z.object({ query: z.string().min(1).max(SEARCH_QUERY_MAX_CHARS) }),
    response: z.object({ hits: z.array(SearchHit), tookMs: z.number() }),
  },
  /**
   * A read-only page of a Claude Code / Codex candidate's conversation (not imported), newest
   * first: the messages before `beforeIndex` (the newest when absent).
   */
  'agents:preview': {
    request: z.object({ source: z.enum(['claude', 'codex']), path: z.string(), beforeIndex: z.number().int().nonnegative().optional(), limit: z.number().int().positive().max(200) }),
    response: z.object({ messages: z.array(MessageRecord), total: z.number().int().nonnegative() }),
  },
  /** "Open in editor" on the desktop: `code -g path:line`, else $VISUAL / $EDITOR, for a file inside the session's directory. */
  'editor:open': {
    request: z.object({ sessionId: z.string(), path: z.string().min(1), line: z.number().int().positive().optional() }),
    response: z.object({ command: z.string() }),
  },
  /** Seqs of the messages of one session holding every term of the query, oldest first. */
  'session:search': {
    request: z.object({ id: z.string(), query: z.string().min(1).max(SEARCH_QUERY_MAX_CHARS) }),
    response: z.object({ seqs: z.array(z.number().int()) }),
  },
  'stats:get': { request: z.object({}), response: HandoffStatsView },
  'alerts:list': { request: z.object({}), response: z.array(HandoffAlert) },
  /** The full text of a trimmed tool output (artifacts/<sha256>.txt), checked against its hash. */
  'artifact:text': {
    request: z.object({ sessionId: z.string(), ref: z.string().regex(/^artifacts\/[0-9a-f]{64}\.txt$/, 'expected artifacts/<sha256>.txt') }),
    /** `bytes` is the whole artifact; `shownBytes` what `text` holds (at most FULL_OUTPUT_VIEW_MAX_BYTES). */
    response: z.object({ text: z.string(), bytes: z.number().int(), shownBytes: z.number().int() }),
  },
  'relay:status': { request: z.object({}), response: RelayStatusView },
  'devices:list': { request: z.object({}), response: z.array(DeviceView) },
  /** Starts pairing (like `baton device pair`): the one-time code and link; `devices:changed` when a device joined. */
  'devices:pair': { request: z.object({}), response: z.object({ code: z.string(), link: z.string(), expiresAt: z.string() }) },
  /** Joins the device that showed this code (like `baton device join`). */
  'devices:join': { request: z.object({ code: z.string() }), response: DeviceView },
  /** "Send to device": the same handoff as `baton handoff --session ID --to DEVICE`. */
  'devices:send': {
    request: z.object({ sessionId: z.string(), to: z.string() }),
    response: z.object({ category: z.string(), message: z.string(), handoffId: z.string().nullable() }),
  },
  /** Undecided approval requests, oldest first. */
  'approvals:pending': { request: z.object({}), response: z.array(ApprovalViewSchema) },
  'approvals:history': { request: z.object({ sessionId: z.string() }), response: z.array(ApprovalViewSchema) },
  'approvals:decide': { request: DecideParams.extend({ requestId: z.string() }), response: ApprovalViewSchema },
  /** Grants of one session (and of the agent session it was imported from), or of every session when none is given. */
  'grants:list': { request: z.object({ sessionId: z.string().optional() }), response: z.array(Grant) },
  'grants:revoke': { request: z.object({ sessionId: z.string(), grantId: z.string() }), response: z.object({ revoked: z.literal(true) }) },
  'tasks:list': { request: z.object({ sessionId: z.string().optional() }), response: z.array(TaskViewSchema) },
  /** Unfinished tasks of a handed-off session with what to do about each; none is dropped. */
  'tasks:handoff': { request: z.object({ sessionId: z.string() }), response: z.array(HandoffTaskSchema) },
  /** Every task the session carries (registered, or found in an imported log) with what to do about it. */
  'tasks:carried': { request: z.object({ sessionId: z.string() }), response: z.array(CarriedTaskView) },
  'tasks:terminate': { request: z.object({ id: z.string(), confirmed: z.literal(true) }), response: TaskViewSchema },
  /** Deletes the records of completed and failed tasks ("Clear finished"); running ones stay. */
  'tasks:clear-finished': { request: z.object({}), response: z.object({ cleared: z.array(z.string()) }) },
  /** The end of a task's log file ("Open log"), bounded on the host. */
  'tasks:log': { request: z.object({ id: z.string() }), response: z.object({ path: z.string(), text: z.string(), bytes: z.number().int(), shownBytes: z.number().int() }) },
  /** The handed-off workspace checked against this disk now: complete / partial / none, and what rehydration would do. */
  'workspace:status': {
    request: z.object({ sessionId: z.string() }),
    response: z.object({ hasWorkspace: z.boolean(), verification: WorkspaceVerification.nullable(), plan: RehydrationPlan.nullable() }),
  },
  /** The changed files of the handed-off workspace (status, counts). */
  'workspace:diff': { request: z.object({ sessionId: z.string() }), response: DiffFileList },
  /** Both sides of one changed file; `full` opens a file past the inline limit on demand. */
  'workspace:file': {
    request: z.object({ sessionId: z.string(), path: z.string(), against: z.enum(['head', 'disk']).optional(), full: z.boolean().optional() }),
    response: FileDiff,
  },
  /** One confirmed rehydration step (take a file's handed-off version, or make a worktree). */
  'workspace:rehydrate': { request: RehydrateRequest, response: RehydrateResult },
  /** Watch the handed-off files while the Changes tab is open; drift arrives as `workspace:drift`. */
  'workspace:watch': {
    /** `renew`: the watch this view holds, to extend its lease (a new one is started when it expired). */
    request: z.object({ sessionId: z.string(), renew: z.string().optional() }),
    response: z.object({ watchId: z.string(), watching: z.number().int().nonnegative(), leaseMs: z.number().int().positive() }),
  },
  'workspace:unwatch': { request: z.object({ watchId: z.string() }), response: z.object({ stopped: z.literal(true) }) },
  /** Claude Code and Codex sessions on this machine (read-only, incremental scan). */
  'agents:list': { request: AgentListRequest, response: AgentScan },
  /** Brings one of them into Baton (once per source state) and selects it. */
  'agents:import': { request: z.object({ source: z.enum(['claude', 'codex']), path: z.string() }), response: z.object({ sessionId: z.string(), created: z.boolean() }) },
  /** "Continue in terminal" for a Baton session, or for an agent candidate by its tool id and cwd. */
  'terminal:command': {
    request: z.union([
      z.object({ sessionId: z.string() }),
      z.object({ source: z.enum(['claude', 'codex']), externalId: z.string(), cwd: z.string() }),
    ]),
    response: TerminalCommand,
  },
  /** Continue in the desktop (issue 19): whether the composer is on, the run going or last run, a queued follow-up. */
  'composer:status': { request: z.object({ sessionId: z.string() }), response: ComposerStatus },
  /** Sends a follow-up: runs the session's agent headless, or queues it behind the run going. */
  'composer:send': { request: SendRequest, response: ComposerStatus },
  /** Stops the run: SIGINT, then SIGTERM after a grace period, to the pid Baton started only. */
  'composer:stop': { request: z.object({ sessionId: z.string() }), response: ComposerStatus },
  /** "Continue in terminal" after a desktop run: hands the baton back (epoch + 1). */
  'composer:hand-back': { request: z.object({ sessionId: z.string() }), response: SessionDocSchema },
  /** Client-local preferences: answered by the host shell (electron-store / localStorage), never by the core. */
  ...preferenceChannels,
  ...lifecycleChannels,
  ...lockChannels,
} as const;
export type UiChannel = keyof typeof uiChannels;
export type UiRequest<C extends UiChannel> = z.infer<(typeof uiChannels)[C]['request']>;
export type UiResponse<C extends UiChannel> = z.infer<(typeof uiChannels)[C]['response']>;

export const uiEvents = {
  /** A session was created or changed (a handoff arrived, messages were appended). */
  'session:changed': z.object({ id: z.string(), reason: z.string() }),
  /** Ask the UI to select a session (from a baton:// link or a handoff). */
  'session:select': z.object({ id: z.string() }),
  /** An approval request arrived or was decided; re-fetch approvals:pending. */
  'approvals:changed': z.object({ sessionId: z.string(), requestId: z.string().optional(), type: z.string() }),
  /** A task was registered or changed state. */
  'tasks:changed': z.object({ id: z.string(), state: z.string() }),
  /** A baton://pair link was opened: show the Devices panel with the code ready to join. */
  'devices:pair-link': z.object({ code: z.string() }),
  /** A device was paired (or pairing ended); re-fetch devices:list. */
  'devices:changed': z.object({ reason: z.string() }),
  /** Watched handed-off files changed on disk (paths relative to the repository root). */
  'workspace:drift': z.object({ sessionId: z.string(), paths: z.array(z.string()) }),
  /** A handoff was refused because the disk disagreed with its manifest. */
  'handoff:alert': HandoffAlert,
  /** The resident Claude Code / Codex candidates changed (a watched file, a rescan, Baton's index): re-fetch agents:list. */
  'agents:changed': z.object({ added: z.number(), updated: z.number(), removed: z.number(), rescan: z.boolean() }),
  /** A scan is reading session files: "Reading Claude Code sessions… done / total". */
  'agents:progress': z.object({ source: z.enum(['claude', 'codex']), done: z.number(), total: z.number() }),
  /** A desktop run did something (text, a tool call or its result, an error, the end). */
  'composer:event': z.object({ sessionId: z.string(), runId: z.string(), state: RunState, event: RunEvent }),
  /** The host's store was locked or unlocked (passphrase mode): every window shows the unlock screen or the app. */
  'store:lock-changed': z.object({ state: z.enum(['locked', 'unlocked']) }),
} as const;
export type UiEvent = keyof typeof uiEvents;
export type UiEventPayload<E extends UiEvent> = z.infer<(typeof uiEvents)[E]>;

/** Envelope of the browser host's WebSocket transport. */
export const WsClientMessage = z.object({
  kind: z.literal('request'),
  id: z.number().int().nonnegative(),
  channel: z.string(),
  payload: z.unknown(),
});
export type WsClientMessage = z.infer<typeof WsClientMessage>;

export const WsServerMessage = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('response'),
    id: z.number().int().nonnegative(),
    result: z.union([z.object({ ok: z.literal(true), value: z.unknown() }), z.object({ ok: z.literal(false), error: HandlerError })]),
  }),
  z.object({ kind: z.literal('event'), event: z.string(), payload: z.unknown() }),
]);
export type WsServerMessage = z.infer<typeof WsServerMessage>;
