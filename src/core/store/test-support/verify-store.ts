import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { openStore, type OpenStoreOptions } from '../index.js';
import { scanLog } from '../record-codec.js';
import { recordCodecFor } from '../at-rest/index.js';
import { ApprovalLog, APPROVALS_FILE } from '../../approvals/approval-log.js';
import { TaskFiles } from '../../tasks/task-files.js';
import { approvalOf, contentOf, type Ack } from './crash-scenario.js';

export interface Verdict {
  sessions: number;
  corrupted: string[];
  lost: string[];
  duplicates: string[];
  tornTailsRepaired: number;
  tornTailsLeft: number;
  midDamage: number;
  problems: string[];
}

/** Recovers a store after a crash and checks it against what was acknowledged before the crash. */
export async function verifyAfterCrash(root: string, acks: Ack[], storeOptions: OpenStoreOptions = {}): Promise<Verdict> {
  const v: Verdict = { sessions: 0, corrupted: [], lost: [], duplicates: [], tornTailsRepaired: 0, tornTailsLeft: 0, midDamage: 0, problems: [] };
  const store = await openStore(root, { ...storeOptions, metadataFlushMs: 0 });
  const dirs: string[] = [];
  for (const sub of ['sessions', 'archived']) {
    for (const name of await readdir(join(root, sub)).catch(() => [] as string[])) if (!name.startsWith('.')) dirs.push(name);
  }
  const listed = new Set((await store.list({ includeArchived: true })).map((r) => r.id));
  for (const id of dirs) {
    v.sessions += 1;
    try {
      await store.getSession(id);
      const report = await store.recover(id);
      if (report.truncatedTail) v.tornTailsRepaired += 1;
      v.midDamage += report.quarantined.length;
      const records = await store.readMessages(id);
      const ids = records.map((r) => r.id);
      if (new Set(ids).size !== ids.length) v.duplicates.push(id);
      records.forEach((r, i) => {
        if (r.seq !== i) v.problems.push(`${id}: seq ${r.seq} at position ${i}`);
        if (r.content !== contentOf(r.id)) v.problems.push(`${id}: content of ${r.id} differs`);
      });
      const raw = await readFile(join(store.sessionDir(id), 'messages.jsonl'));
      const scan = scanLog(raw, 0, recordCodecFor(store.fileSystem, store.sessionDir(id)));
      if (scan.tail) v.tornTailsLeft += 1;
      if (scan.midDamage.length > 0) v.problems.push(`${id}: damage left mid-file`);
      const doc = await store.getSession(id);
      if (doc.messageCount !== records.length) v.problems.push(`${id}: messageCount ${doc.messageCount} != ${records.length}`);
      if (!listed.has(id)) v.problems.push(`${id}: missing from the index`);
    } catch (error) {
      v.corrupted.push(`${id}: ${(error as Error).message}`);
    }
  }
  for (const a of acks) {
    if (a.kind === 'created' || a.kind === 'appended') {
      const present = new Set((await store.readMessages(a.session).catch(() => [])).map((r) => r.id));
      for (const id of a.ids) if (!present.has(id)) v.lost.push(`${a.session}/${id}`);
    } else if (a.kind === 'updated') {
      const doc = await store.getSession(a.session).catch(() => undefined);
      if (!doc || (doc.title !== a.title && doc.revision === 0)) v.problems.push(`${a.session}: acknowledged title update lost`);
    } else if (a.kind === 'claimed') {
      const doc = await store.getSession(a.session).catch(() => undefined);
      if (!doc || doc.holder.epoch < a.epoch) v.problems.push(`${a.session}: acknowledged claim lost`);
    } else if (a.kind === 'task') {
      const task = await new TaskFiles(root).read(a.id).catch((error: Error) => error);
      if (task instanceof Error) v.problems.push(`task ${a.id}: acknowledged but unreadable: ${task.message}`);
      else if (task.revision < a.revision) v.problems.push(`task ${a.id}: acknowledged revision ${a.revision} lost`);
    } else if (a.kind === 'approval') {
      continue; // checked per session below
    } else if (a.kind === 'archived') {
      const doc = await store.getSession(a.session).catch(() => undefined);
      if (!doc?.archived) v.problems.push(`${a.session}: acknowledged archive lost`);
    }
  }
  await checkApprovals(store.sessionDir.bind(store), acks, v);
  await store.close();
  return v;
}

/**
 * Every acknowledged approval is read back; then one more is appended and read back too, so a torn
 * tail left by the kill can never swallow the next record.
 */
async function checkApprovals(sessionDir: (id: string) => string, acks: Ack[], v: Verdict): Promise<void> {
  const bySession = new Map<string, string[]>();
  for (const a of acks) if (a.kind === 'approval') bySession.set(a.session, [...(bySession.get(a.session) ?? []), a.requestId]);
  for (const [session, ids] of bySession) {
    const file = join(sessionDir(session), APPROVALS_FILE);
    try {
      await new ApprovalLog(file).append(approvalOf(session, 'after-crash'));
      const { records } = await new ApprovalLog(file).read();
      const present = new Set(records.map((r) => (r.type === 'decision' ? r.requestId : '')));
      for (const id of [...ids, 'after-crash']) if (!present.has(id)) v.lost.push(`${session}/approvals/${id}`);
      for (const r of records) if (r.type === 'decision' && r.reason !== approvalOf(session, r.requestId).reason) v.problems.push(`${session}: approval ${r.requestId} differs`);
      const scan = (await readFile(file, 'utf8')).split('\n');
      if (scan.at(-1) !== '') v.tornTailsLeft += 1;
    } catch (error) {
      v.corrupted.push(`${session}/approvals: ${(error as Error).message}`);
    }
  }
}
