import { join } from 'node:path';
// The log alone: the barrel would start the approval service and the risk policy (tree-sitter) in
// every handoff process.
import { ApprovalLog, APPROVALS_FILE } from '../approvals/approval-log.js';
import type { SessionStore } from '../store/types.js';

export interface ApprovalFacts {
  /** Requests with no decision yet. */
  pending: number;
  /** Rules of the session's grants that were not revoked ("allow for this session"). */
  activeGrants: string[];
}

/**
 * What the sender needs from a session's approvals log, read without an approval service (whose
 * close would deny what is pending): how many requests wait, and which grants are in force.
 */
export async function readApprovalFacts(store: SessionStore, sessionId: string): Promise<ApprovalFacts> {
  const { records } = await new ApprovalLog(join(store.sessionDir(sessionId), APPROVALS_FILE)).read();
  const requests = new Set<string>();
  const decided = new Set<string>();
  const grants = new Map<string, string>();
  for (const record of records) {
    if (record.type === 'request') requests.add(record.requestId);
    else if (record.type === 'decision') decided.add(record.requestId);
    else if (record.type === 'grant') grants.set(record.grant.id, record.grant.rule);
    else grants.delete(record.grantId);
  }
  return { pending: [...requests].filter((id) => !decided.has(id)).length, activeGrants: [...new Set(grants.values())].sort() };
}
