import type { MessageInput } from '../../../shared/message.js';
import type { SessionStore } from '../types.js';

/**
 * The crash suite's workload: create, concurrent appends (group commit), a rewrite, a claim, more
 * appends, a fork and an archive. Deterministic for a given variant, so the op count K walks every
 * write/fsync/rename of every operation. `ack` is called only after a promise resolved.
 */
export type Ack =
  | { kind: 'created'; session: string; ids: string[] }
  | { kind: 'appended'; session: string; ids: string[] }
  | { kind: 'updated'; session: string; title: string }
  | { kind: 'claimed'; session: string; epoch: number }
  | { kind: 'archived'; session: string };

/** Content is derived from the id, so recovery can check every byte came back. */
export function contentOf(id: string): string {
  return `content of ${id}: \ud800 lone, \u2028 ls, \u2029 ps, émoji 🎉, quote " backslash \\ newline \n end`;
}

function msgs(prefix: string, from: number, n: number): MessageInput[] {
  return Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', id: `${prefix}-${from + i}`, content: contentOf(`${prefix}-${from + i}`) }) as MessageInput);
}

export async function runScenario(store: SessionStore, variant: number, ack: (a: Ack) => void): Promise<void> {
  const sid = `sess-${variant}`;
  const first = msgs('a', 0, 1 + (variant % 3));
  const s = await store.createSession({ id: sid, cwd: '/w', gitRoot: null, branch: null, title: 'start', source: { tool: 'claude' }, holder: 'terminal' }, first);
  ack({ kind: 'created', session: sid, ids: first.map((m) => m.id!) });
  let n = first.length;
  const batches = [msgs('a', n, 2), msgs('a', n + 2, 1 + (variant % 2)), msgs('a', n + 4, 1)];
  n += 5;
  await Promise.all(batches.map((b) => store.append(sid, 1, b).then(() => ack({ kind: 'appended', session: sid, ids: b.map((m) => m.id!) }))));
  const title = `renamed-${variant}`;
  // A client retries a CONFLICT (the store's own messageCount write-back may have bumped the revision).
  for (;;) {
    try {
      await store.update(sid, (await store.getSession(sid)).revision, (d) => ({ ...d, title }));
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== 'CONFLICT') throw error;
    }
  }
  ack({ kind: 'updated', session: sid, title });
  const claimed = await store.claim(s.id, 'desktop');
  ack({ kind: 'claimed', session: sid, epoch: claimed.holder.epoch });
  const more = msgs('b', 0, 1 + (variant % 4));
  await store.append(sid, claimed.holder.epoch, more);
  ack({ kind: 'appended', session: sid, ids: more.map((m) => m.id!) });
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
