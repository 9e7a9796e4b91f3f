import type { MessageRecord } from '../../shared/message.js';
import type { ExtractState } from './extract.js';

/** The last turns every handoff carries as anchors: user and assistant messages, newest first. */
export const LAST_TURNS = 6;

/**
 * The anchor messages (design article §3.4): the first user goal, messages stating decisions or
 * constraints, open questions, the latest compaction summary and the last turns, in log order.
 */
export function anchorMessageIds(state: ExtractState, records: readonly MessageRecord[]): string[] {
  const turns = new LastTurns();
  // Only the last few records can be last turns: read from the end, as far as needed.
  let from = records.length;
  for (let found = 0; from > 0 && found < LAST_TURNS; ) if (isTurn(records[--from]!)) found++;
  for (let i = from; i < records.length; i++) turns.add(records[i]!);
  return anchorsOf(state, turns.list());
}

/** The anchors from a state and the last turns (oldest first), as LastTurns keeps them. */
export function anchorsOf(state: ExtractState, lastTurns: readonly TurnRef[]): string[] {
  const bySeq = new Map<string, number>();
  const add = (id: string, seq: number) => bySeq.set(id, seq);
  if (state.goal) add(state.goal.id, state.goal.seq);
  for (const item of [...state.decisions, ...state.questions]) add(item.id, item.seq);
  if (state.compaction) add(state.compaction.id, state.compaction.seq);
  for (let i = lastTurns.length - 1; i >= 0; i--) add(lastTurns[i]!.id, lastTurns[i]!.seq);
  return [...bySeq.entries()].sort((a, b) => a[1] - b[1]).map(([id]) => id);
}

export interface TurnRef {
  id: string;
  seq: number;
}

/** The last LAST_TURNS user and assistant messages of a log read a record at a time. */
export class LastTurns {
  private readonly turns: TurnRef[] = [];

  add(record: Pick<MessageRecord, 'id' | 'seq' | 'role'>): void {
    if (!isTurn(record)) return;
    this.turns.push({ id: record.id, seq: record.seq });
    if (this.turns.length > LAST_TURNS) this.turns.shift();
  }

  /** Oldest first. */
  list(): readonly TurnRef[] {
    return this.turns;
  }
}

function isTurn(record: Pick<MessageRecord, 'role'>): boolean {
  return record.role === 'user' || record.role === 'assistant';
}
