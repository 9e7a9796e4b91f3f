import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { openStore } from '../index.js';
import { scanLog } from '../record-codec.js';
import { contentOf, type Ack } from './crash-scenario.js';

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
export async function verifyAfterCrash(root: string, acks: Ack[]): Promise<Verdict> {
  const v: Verdict = { sessions: 0, corrupted: [], lost: [], duplicates: [], tornTailsRepaired: 0, tornTailsLeft: 0, midDamage: 0, problems: [] };
  const store = await openStore(root, { metadataFlushMs: 0 });
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
      const scan = scanLog(raw, 0);
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
    } else if (a.kind === 'archived') {
      const doc = await store.getSession(a.session).catch(() => undefined);
      if (!doc?.archived) v.problems.push(`${a.session}: acknowledged archive lost`);
    }
  }
  await store.close();
  return v;
}
