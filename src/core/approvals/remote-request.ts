import type { RemoteApprovalContext, RiskAssessment } from '../../shared/approvals.js';
import { assessRisk, type RiskContext, type ToolCall } from '../policy/risk.js';
import { withRemotePaths } from '../policy/targets.js';
import { normalizeAbsolute } from '../policy/paths.js';

/**
 * A request from a remote box (`baton ssh`, issue 22) is judged with what its CLI resolved there:
 * each path of the call is replaced by its real path on that box, the policy runs without looking
 * at this machine's filesystem (paths are only normalised), and a path the remote could not
 * resolve makes the call high risk: unknown is never low.
 */
const identity = (abs: string): string => normalizeAbsolute(abs);

/** Runs `fn` with the policy's path resolution switched off the local filesystem when `remote` is set. */
export function inRemotePaths<T>(remote: RemoteApprovalContext | undefined, fn: () => T): T {
  return remote ? withRemotePaths(identity, fn) : fn();
}

/** The call as the remote resolved it: a top-level string (or string in an array) equal to a sent path becomes its real path there. */
export function remoteCall(call: ToolCall, remote: RemoteApprovalContext | undefined): ToolCall {
  if (!remote) return call;
  const real = new Map(remote.paths.filter((p) => p.resolved !== null).map((p) => [p.path, p.resolved as string]));
  const swap = (v: unknown): unknown => (typeof v === 'string' && real.has(v) ? real.get(v) : Array.isArray(v) ? v.map(swap) : v);
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(call.input)) input[key] = swap(value);
  return { tool: call.tool, input };
}

export function assessRemoteRisk(call: ToolCall, ctx: RiskContext, remote: RemoteApprovalContext): RiskAssessment {
  const assessed = inRemotePaths(remote, () => assessRisk(remoteCall(call, remote), ctx));
  const host = remote.host ?? 'the remote box';
  const unresolved = remote.paths.filter((p) => p.resolved === null);
  if (unresolved.length === 0) return assessed;
  const reasons = [
    ...assessed.reasons,
    ...unresolved.map((p) => ({ rule: 'remote-path-unresolved', message: `${p.path} could not be resolved on ${host}, so where it leads is unknown`, level: 'high' as const })),
  ];
  return { ...assessed, level: 'high', reasons };
}
