import { join } from 'node:path';
import type { ApprovalLogRecord } from '../../../shared/approvals.js';
import type { MessageInput } from '../../../shared/message.js';
import type { TaskRecord } from '../../../shared/tasks.js';
import { ApprovalLog, APPROVALS_FILE } from '../../approvals/approval-log.js';
import type { DurableFs } from '../../fs/durable-fs.js';
import { TaskFiles } from '../../tasks/task-files.js';
import type { SessionStore } from '../types.js';

/**
 * The crash suite's workload: create, concurrent appends (group commit), a rewrite, a claim, more
 * appends, approvals and a task record beside them (through the same fs layer), a fork and an
 * archive. Deterministic for a given variant, so the op count K walks every
 * write/fsync/rename of every operation. `ack` is called only after a promise resolved.
 */
export type Ack =
  | { kind: 'created'; session: string; ids: string[] }
  | { kind: 'appended'; session: string; ids: string[] }
  | { kind: 'updated'; session: string; title: string }
  | { kind: 'claimed'; session: string; epoch: number }
  | { kind: 'archived'; session: string }
  | { kind: 'approval'; session: string; requestId: string }
  | { kind: 'task'; id: string; revision: number };

export const CRASH_TASK_ID = 'crash-task';

export function approvalOf(session: string, requestId: string): ApprovalLogRecord {
  return { type: 'decision', requestId, sessionId: session, decision: 'deny', by: 'user', reason: contentOf(requestId), confirmedHighRisk: false, grantId: null, decidedAt: '2026-11-30T10:00:00.000Z' };
}

function taskOf(session: string, revision: number): TaskRecord {
  const at = '2026-11-30T10:00:00.000Z';
  return {
    schemaVersion: 1, id: CRASH_TASK_ID, sessionId: session, kind: 'build', command: `make ${revision}`, pid: null, pidStartTime: null, port: null, logPath: null,
    recoverable: false, state: 'running', epoch: 1, leaseTtlMs: 30_000, lastHeartbeatAt: at, leaseExpiresAt: at, createdAt: at, updatedAt: at, revision,
    registrationSha256: 'crash', outcome: null, delivery: null,
  };
}

/** Content is derived from the id, so recovery can check every byte came back. */
export function contentOf(id: string): string {
  return `content of ${id}: \ud800 lone, \u2028 ls, \u2029 ps, émoji 🎉, quote " backslash \\ newline \n end`;
}

function msgs(prefix: string, from: number, n: number): MessageInput[] {
  return Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', id: `${prefix}-${from + i}`, content: contentOf(`${prefix}-${from + i}`) }) as MessageInput);
}

export async function runScenario(store: SessionStore, variant: number, ack: (a: Ack) => void, fs?: DurableFs): Promise<void> {
  const sid = `sess-${variant}`;
  const first = msgs('a', 0, 1 + (variant % 3));
  const s = await store.createSession({ id: sid, cwd: '/w', gitRoot: null, branch: null, title: 'start', source: { tool: 'claude' }, holder: 'terminal' }, first);
  ack({ kind: 'created', session: sid, ids: first.map((m) => m.id!) });
  let n = first.length;
  const batches = [msgs('a', n, 2), msgs('a', n + 2, 1 + (variant % 2)), msgs('a', n + 4, 1)];
  n += 5;
  await Promise.all(batches.map((b) => store.append(sid, 1, b).then(() => ack({ kind: 'appended', session: sid, ids: b.map((m) => m.id!) }))));
  const title = `renamed-${variant}`;
  // The store's messageCount write-back may bump the revision meanwhile: mutate retries the CAS.
  await store.mutate(sid, (d) => ({ ...d, title }));
  ack({ kind: 'updated', session: sid, title });
  const claimed = await store.claim(s.id, 'desktop');
  ack({ kind: 'claimed', session: sid, epoch: claimed.holder.epoch });
  const more = msgs('b', 0, 1 + (variant % 4));
  await store.append(sid, claimed.holder.epoch, more);
  ack({ kind: 'appended', session: sid, ids: more.map((m) => m.id!) });
  if (fs) {
    const approvals = new ApprovalLog(join(store.sessionDir(sid), APPROVALS_FILE), fs);
    for (let i = 0; i < 2 + (variant % 2); i++) {
      await approvals.append(approvalOf(sid, `req-${i}`));
      ack({ kind: 'approval', session: sid, requestId: `req-${i}` });
    }
    const tasks = new TaskFiles(store.root, fs);
    await tasks.create(taskOf(sid, 0));
    ack({ kind: 'task', id: CRASH_TASK_ID, revision: 0 });
    await tasks.write(taskOf(sid, 1));
    ack({ kind: 'task', id: CRASH_TASK_ID, revision: 1 });
  }
  const fork = await store.fork(sid, 2, 'desktop');
  const forkIds = (await store.readMessages(fork.id)).map((r) => r.id);
  ack({ kind: 'created', session: fork.id, ids: forkIds });
  const fm = msgs('f', 0, 2);
  await store.append(fork.id, 1, fm);
  ack({ kind: 'appended', session: fork.id, ids: fm.map((m) => m.id!) });
  for (let i = 0; i < 2 + (variant % 3); i++) {
    const m = msgs('c', i * 2, 2);
    await store.append(sid, claimed.holder.epoch, m);
    ack({ kind: 'appended', session: sid, ids: m.map((x) => x.id!) });
  }
  await store.archive(fork.id);
  ack({ kind: 'archived', session: fork.id });
  await store.close();
}
