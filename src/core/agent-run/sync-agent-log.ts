import type { MessageInput } from '../../shared/message.js';
import type { SessionDoc } from '../../shared/session.js';
import { planTranscript } from '../handoff/transcript-source.js';
import type { SessionStore } from '../store/types.js';

/** Message ids read back per page while collecting what the store already holds. */
const ID_PAGE = 1_000;

/**
 * After a run, Baton's copy of an imported session catches up with the agent's own log: the log
 * is read again and only messages whose id the store does not hold yet are appended (the agent's
 * message ids are the receipts), so running it twice adds nothing. The log streams through the
 * import's converter (transcript-source.ts): only the new messages are held, never the whole
 * conversion. Lines the agent appends while it is read are left for the next sync.
 */
export async function syncAgentLog(store: SessionStore, session: SessionDoc, env: NodeJS.ProcessEnv): Promise<{ appended: number }> {
  const tool = session.source.tool;
  if ((tool !== 'claude' && tool !== 'codex') || !session.source.path) return { appended: 0 };
  const plan = await planTranscript(tool, session.source.path, env);
  const known = new Set<string>();
  for (let after = -1; ; ) {
    const page = await store.readMessages(session.id, { afterSeq: after, limit: ID_PAGE });
    for (const record of page) known.add(record.id);
    if (page.length < ID_PAGE) break;
    after = page[page.length - 1]!.seq;
  }
  // A message without an id cannot be recognised again: only those with ids are synced.
  const withIds: MessageInput[] = [];
  for await (const part of plan.source.parts()) for (const m of part) if (m.id !== undefined && !known.has(m.id)) withIds.push(m);
  if (withIds.length === 0) return { appended: 0 };
  const current = await store.getSession(session.id);
  await store.append(session.id, current.holder.epoch, withIds);
  return { appended: withIds.length };
}
