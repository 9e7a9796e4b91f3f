import { z } from 'zod';
import { builtOnFirstUse } from './built-on-first-use.js';
import { isValidId } from './ids.js';

/**
 * Approval requests, decisions and session grants (issue #6). The same shapes travel over the local
 * socket (`approval.request`), are stored one per line in the session's approvals.jsonl, and reach
 * the UI, so they are declared once here.
 */
export const APPROVALS_SCHEMA_VERSION = 1;
/** Default time a request waits for a person before it is denied. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 10 * 60_000;
/** Longest wait an agent may ask for; longer asks are clamped. */
export const MAX_APPROVAL_TIMEOUT_MS = 60 * 60_000;
/** A reason typed by a person, or produced by us, is kept short. */
export const MAX_REASON_LENGTH = 2_000;

const Id = builtOnFirstUse(() => z.string().refine(isValidId, 'expected an id of A-Z a-z 0-9 . _ - (max 128, no "..")'));

export const RiskLevel = builtOnFirstUse(() => z.enum(['low', 'medium', 'high']));
export type RiskLevel = z.infer<typeof RiskLevel>;

export const RiskReason = builtOnFirstUse(() => z.looseObject({
  /** Stable rule name (e.g. "recursive-delete-outside-workspace"). */
  rule: z.string(),
  /** A sentence for the person deciding. */
  message: z.string(),
  level: RiskLevel,
}));
export type RiskReason = z.infer<typeof RiskReason>;

export const RiskAssessment = builtOnFirstUse(() => z.looseObject({
  level: RiskLevel,
  reasons: z.array(RiskReason),
}));
export type RiskAssessment = z.infer<typeof RiskAssessment>;

/** Paths a remote box's request may name (the policy's own limits are tighter in practice). */
export const MAX_REMOTE_PATHS = 256;

/**
 * What the CLI on a remote box (`baton ssh`, issue 22) resolved there before asking: the workspace
 * root and home on that box, and each path of the call as its real path there, or null when it
 * could not be resolved (judged high). `host` is set by the desktop from the credential, never
 * taken from the remote. The desktop never resolves these paths against its own filesystem.
 */
export const RemoteApprovalContext = builtOnFirstUse(() => z.looseObject({
  host: z.string().max(255).optional(),
  workspaceRoot: z.string().min(1).max(4096),
  home: z.string().min(1).max(4096),
  paths: z
    .array(z.looseObject({ path: z.string().max(4096), resolved: z.string().max(4096).nullable(), inside: z.boolean() }))
    .max(MAX_REMOTE_PATHS),
}));
export type RemoteApprovalContext = z.infer<typeof RemoteApprovalContext>;

/** `approval.request` params, as an agent sends them. */
export const ApprovalRequestParams = builtOnFirstUse(() => z.looseObject({
  requestId: Id,
  sessionId: Id,
  /** Tool name as the agent calls it: Bash, Edit, Write, … */
  tool: z.string().min(1).max(200),
  /** The tool input: command, file_path, content, … */
  input: z.record(z.string(), z.unknown()),
  cwd: z.string().min(1),
  /** How long the agent will wait; clamped to MAX_APPROVAL_TIMEOUT_MS. */
  timeoutMs: z.number().int().positive().optional(),
  /** Which agent asks (claude, codex, …), for the UI. */
  client: z.string().max(100).optional(),
  /**
   * A hash of {session, tool, input, cwd} the bridge sends when the agent gave no id of its own.
   * It may group look-alike requests for display; it never answers one (see approval-service).
   */
  groupKey: z.string().max(128).optional(),
  /** Present only on a request from a remote box (set by the desktop's gate, see RemoteApprovalContext). */
  remote: RemoteApprovalContext.optional(),
}));
export type ApprovalRequestParams = z.infer<typeof ApprovalRequestParams>;

export const Decision = builtOnFirstUse(() => z.enum(['approve', 'deny']));
export type Decision = z.infer<typeof Decision>;

/** Who or what produced a decision. */
export const DecidedBy = builtOnFirstUse(() => z.enum(['user', 'timeout', 'disconnect', 'host-restart', 'grant']));
export type DecidedBy = z.infer<typeof DecidedBy>;

export const ApprovalRequestRecord = builtOnFirstUse(() => z.looseObject({
  type: z.literal('request'),
  schemaVersion: z.number().int().positive(),
  requestId: Id,
  sessionId: Id,
  tool: z.string(),
  input: z.record(z.string(), z.unknown()),
  cwd: z.string(),
  workspaceRoot: z.string(),
  /** Where the root came from: the Baton session, the git repository around cwd, or cwd alone. */
  workspaceSource: z.enum(['session', 'git', 'cwd', 'remote']).optional(),
  /** A remote box's request (issue 22): its host and the paths as resolved there. */
  remote: RemoteApprovalContext.optional(),
  /** Said to the person when the boundary is weak (cwd only, or `/` / home). */
  workspaceWarning: z.string().optional(),
  client: z.string().optional(),
  groupKey: z.string().optional(),
  risk: RiskAssessment,
  createdAt: z.string(),
  expiresAt: z.string(),
}));
export type ApprovalRequestRecord = z.infer<typeof ApprovalRequestRecord>;

export const ApprovalDecisionRecord = builtOnFirstUse(() => z.looseObject({
  type: z.literal('decision'),
  requestId: Id,
  sessionId: Id,
  decision: Decision,
  by: DecidedBy,
  reason: z.string().max(MAX_REASON_LENGTH).nullable(),
  /** True when a high-risk request was approved with the second confirmation. */
  confirmedHighRisk: z.boolean(),
  /** The grant created by "allow for this session", or the grant that approved it. */
  grantId: z.string().nullable(),
  decidedAt: z.string(),
}));
export type ApprovalDecisionRecord = z.infer<typeof ApprovalDecisionRecord>;

/**
 * The Baton session a request belongs to. A request is filed under the id the agent sent (a Baton
 * id, or a Claude Code / Codex session id); once that agent session is opened in Baton, the
 * imported session (which keeps the source id as `source.externalId`) is the one linked.
 */
export const SessionLink = builtOnFirstUse(() => z.object({
  /** The Baton session, or null when none holds this id (yet). */
  batonSessionId: z.string().nullable(),
  title: z.string().nullable(),
  /** claude / codex when the filed id is an agent's own session id. */
  source: z.string().nullable(),
}));
export type SessionLink = z.infer<typeof SessionLink>;

export const Grant = builtOnFirstUse(() => z.looseObject({
  id: Id,
  sessionId: Id,
  /** Permission rule in the `Tool` / `Tool(specifier)` form (see src/core/policy/rules.ts). */
  rule: z.string(),
  /** The request whose approval created it. */
  requestId: Id,
  createdAt: z.string(),
  /** What the rule allows, in a sentence (from the policy's deriveGrant). */
  summary: z.string().optional(),
  /** Added for the UI (never stored): the Baton session the grant's session id belongs to. */
  link: SessionLink.optional(),
}));
export type Grant = z.infer<typeof Grant>;

export const GrantRecord = builtOnFirstUse(() => z.looseObject({ type: z.literal('grant'), grant: Grant }));
export const RevokeRecord = builtOnFirstUse(() => z.looseObject({ type: z.literal('revoke'), grantId: Id, sessionId: Id, reason: z.string(), revokedAt: z.string() }));
export type RevokeRecord = z.infer<typeof RevokeRecord>;

/** One line of approvals.jsonl. */
export const ApprovalLogRecord = builtOnFirstUse(() => z.discriminatedUnion('type', [ApprovalRequestRecord, ApprovalDecisionRecord, GrantRecord, RevokeRecord]));
export type ApprovalLogRecord = z.infer<typeof ApprovalLogRecord>;

/**
 * What "allow for this session" would remember for a request, computed by the policy
 * (src/core/policy/grants.ts): the exact rule and a sentence, or why no narrow rule exists.
 */
export const GrantProposal = builtOnFirstUse(() => z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), rule: z.string(), summary: z.string() }),
  z.object({ ok: z.literal(false), reason: z.string() }),
]));
export type GrantProposal = z.infer<typeof GrantProposal>;


/** What the UI shows for one request. */
export const ApprovalViewSchema = builtOnFirstUse(() => z.object({
  request: ApprovalRequestRecord,
  decision: ApprovalDecisionRecord.nullable(),
  /** Only for undecided requests: what "allow for this session" would grant. */
  grant: GrantProposal.optional(),
  link: SessionLink.optional(),
}));
export type ApprovalView = z.infer<typeof ApprovalViewSchema>;

/** The answer to `approval.request` (inside the `{ok: true}` envelope). */
export const ApprovalAnswer = builtOnFirstUse(() => z.looseObject({
  requestId: Id,
  decision: Decision,
  by: DecidedBy,
  reason: z.string().nullable(),
  risk: RiskAssessment,
  /** True when this request id had been decided before (a replay). */
  replay: z.boolean(),
}));
export type ApprovalAnswer = z.infer<typeof ApprovalAnswer>;

/** What the UI sends to decide. */
export const DecideParams = builtOnFirstUse(() => z.looseObject({
  decision: Decision,
  reason: z.string().max(MAX_REASON_LENGTH).optional(),
  /** The second, deliberate confirmation a high-risk approval needs. */
  confirmHighRisk: z.boolean().optional(),
  /** "Allow for this session": approve and remember a session-scoped grant. */
  allowForSession: z.boolean().optional(),
  /** The rule the person was shown; a grant is refused when the policy would now derive another. */
  expectedRule: z.string().optional(),
}));
export type DecideParams = z.infer<typeof DecideParams>;

/** Stable codes for approval failures (beyond src/shared/error-codes.ts). */
export const ApprovalErrorCode = {
  /** The request was already decided (by a person, a timeout or a disconnect): a late click. */
  ALREADY_DECIDED: 'ALREADY_DECIDED',
  /** A high-risk approval without the second confirmation. */
  CONFIRMATION_REQUIRED: 'CONFIRMATION_REQUIRED',
  /** The same request id was sent again with a different payload. */
  CONFLICT: 'CONFLICT',
  NOT_FOUND: 'NOT_FOUND',
  /** "Allow for this session" asked where no narrow rule can be derived (the message says why). */
  GRANT_REFUSED: 'GRANT_REFUSED',
  /** A request id repeated after its expiresAt: decisions are never replayed past it. */
  EXPIRED: 'EXPIRED',
  /** A request id repeated after a high-risk approval: that approval answers one call only. */
  NOT_REUSABLE: 'NOT_REUSABLE',
  BAD_REQUEST: 'BAD_REQUEST',
  IO_ERROR: 'IO_ERROR',
} as const;
export type ApprovalErrorCode = (typeof ApprovalErrorCode)[keyof typeof ApprovalErrorCode];
