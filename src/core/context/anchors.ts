import type { MessageRecord } from '../../shared/message.js';
import type { ExtractState } from './extract.js';

/** The last turns every handoff carries as anchors: user and assistant messages, newest first. */
export const LAST_TURNS = 6;

/**
 * The anchor messages (design article §3.4): the first user goal, messages stating decisions or
 * constraints, open questions, the latest compaction summary and the last turns, in log order.
 */
export function anchorMessageIds(state: ExtractState, records: readonly MessageRecord[]): string[] {
  const bySeq = new Map<string, number>();
  const add = (id: string, seq: number) => bySeq.set(id, seq);
  if (state.goal) add(state.goal.id, state.goal.seq);
  for (const item of [...state.decisions, ...state.questions]) add(item.id, item.seq);
  if (state.compaction) add(state.compaction.id, state.compaction.seq);
  let turns = 0;
  for (let i = records.length - 1; i >= 0 && turns < LAST_TURNS; i--) {
    const record = records[i]!;
    if (record.role !== 'user' && record.role !== 'assistant') continue;
    add(record.id, record.seq);
    turns++;
  }
  return [...bySeq.entries()].sort((a, b) => a[1] - b[1]).map(([id]) => id);
}
