import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { isValidId } from '../../shared/ids.js';
import { canonicalJson } from '../hash.js';
import type { Answer } from '../transport/types.js';

/**
 * The Claude Code PreToolUse bridge, minus the I/O: read the hook input, turn it into an
 * `approval.request`, and turn the answer (or any failure) into the hook's output. Anything that
 * is not a clear decision from the desktop becomes `ask`, so the terminal's own prompt takes
 * over: the bridge never allows silently.
 */
export const ClaudeHookInput = z.looseObject({
  session_id: z.string(),
  transcript_path: z.string().optional(),
  cwd: z.string().min(1),
  permission_mode: z.string().optional(),
  hook_event_name: z.string(),
  tool_name: z.string().min(1),
  tool_input: z.record(z.string(), z.unknown()),
  tool_use_id: z.string().optional(),
});
export type ClaudeHookInput = z.infer<typeof ClaudeHookInput>;

/** The agent-neutral input of `baton approve --json`. */
export const GenericApproveInput = z.looseObject({
  tool: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
  cwd: z.string().min(1),
  sessionId: z.string(),
  requestId: z.string().optional(),
  client: z.string().optional(),
});
export type GenericApproveInput = z.infer<typeof GenericApproveInput>;

export type PermissionDecision = 'allow' | 'deny' | 'ask';

export interface ClaudeHookOutput {
  hookSpecificOutput: {
    hookEventName: 'PreToolUse';
    permissionDecision: PermissionDecision;
    permissionDecisionReason: string;
  };
}

export interface BridgeRequest {
  requestId: string;
  sessionId: string;
  tool: string;
  input: Record<string, unknown>;
  cwd: string;
  client: string;
  /** Content hash of the call, for grouping look-alike requests in the UI only. */
  groupKey: string;
  timeoutMs?: number;
}

/**
 * The request id: the agent's own id for this tool use (`tool_use_id` / `requestId`), so a retried
 * hook call gets the recorded decision back; otherwise a fresh id. Never a hash of the content: an
 * id derived from {session, tool, input, cwd} would hand one approval to every identical call
 * after it, across restarts and across clients.
 */
export function bridgeRequestId(preferred: string | undefined): string {
  if (preferred !== undefined && isValidId(preferred)) return preferred;
  return `req-${randomUUID()}`;
}

/** A hash that groups identical calls for display (the UI may say "asked 3 times"); it answers nothing. */
export function groupKeyOf(fields: unknown): string {
  return `grp-${createHash('sha256').update(canonicalJson(fields)).digest('hex').slice(0, 40)}`;
}

/** A session id the store accepts: the given one, or a stable one derived from it. */
export function bridgeSessionId(raw: string): string {
  if (isValidId(raw)) return raw;
  return `ext-${createHash('sha256').update(raw).digest('hex').slice(0, 32)}`;
}

export function fromClaudeHook(hook: ClaudeHookInput, sessionOverride?: string): BridgeRequest {
  return {
    requestId: bridgeRequestId(hook.tool_use_id),
    groupKey: groupKeyOf({ s: hook.session_id, t: hook.tool_name, i: hook.tool_input, c: hook.cwd }),
    sessionId: bridgeSessionId(sessionOverride ?? hook.session_id),
    tool: hook.tool_name,
    input: hook.tool_input,
    cwd: hook.cwd,
    client: 'claude',
  };
}

export function fromGeneric(input: GenericApproveInput): BridgeRequest {
  return {
    requestId: bridgeRequestId(input.requestId),
    groupKey: groupKeyOf({ s: input.sessionId, t: input.tool, i: input.input, c: input.cwd }),
    sessionId: bridgeSessionId(input.sessionId),
    tool: input.tool,
    input: input.input,
    cwd: input.cwd,
    client: input.client ?? 'other',
  };
}

export interface BridgeDecision {
  decision: PermissionDecision;
  reason: string;
  requestId: string | null;
}

/** Maps a socket answer to allow/deny; anything unexpected is `ask` with the reason. */
export function decisionFromAnswer(answer: Answer, requestId: string): BridgeDecision {
  if (!answer.ok) return { decision: 'ask', reason: `Baton could not decide (${String(answer.code)}: ${String(answer.message)}); asking here instead`, requestId };
  const by = typeof answer.by === 'string' ? answer.by : 'user';
  const why = typeof answer.reason === 'string' && answer.reason.length > 0 ? `: ${answer.reason}` : '';
  if (answer.decision === 'approve') return { decision: 'allow', reason: `Approved in Baton (${by})${why}`, requestId };
  if (answer.decision === 'deny') return { decision: 'deny', reason: `Denied in Baton (${by})${why}`, requestId };
  return { decision: 'ask', reason: 'Baton answered without a decision; asking here instead', requestId };
}

export function askBecause(why: string): BridgeDecision {
  return { decision: 'ask', reason: `${why}; asking here instead`, requestId: null };
}

export function toClaudeHookOutput(d: BridgeDecision): ClaudeHookOutput {
  return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: d.decision, permissionDecisionReason: d.reason } };
}
