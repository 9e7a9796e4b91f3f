import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { APPROVALS_FILE } from '../approvals/approvals-file.js';
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
  const file = join(store.sessionDir(sessionId), APPROVALS_FILE);
  // A session that never asked for an approval has no log (every newly landed one): its facts are
  // known without the log's reader and zod schemas, ~3 ms of a handoff process's start-up. Any
  // other answer than "not there" goes to the reader, which reports it.
  if (await stat(file).then(() => false, (error: NodeJS.ErrnoException) => error.code === 'ENOENT')) return { pending: 0, activeGrants: [] };
  // The log alone, when used: the barrel would start the approval service and the risk policy (tree-sitter).
  const { ApprovalLog } = await import('../approvals/approval-log.js');
  const { records } = await new ApprovalLog(file).read();
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
