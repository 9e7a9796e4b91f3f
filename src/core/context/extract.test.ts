import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../shared/message.js';
import { CONSTRAINT, DECISION, DECISIONS_EARLY, DECISIONS_LATE, emptyState, extendWith, ITEM_MAX_CHARS, QUESTIONS_MAX, type ExtractState, type ItemKind } from './extract.js';

/**
 * The sentence pass as it was before the pre-test (every message split, every sentence tested):
 * the oracle extendWith must match. Only the decisions and questions are compared: the rest of
 * the state does not go through sentences.
 */
function referenceSentences(state: Pick<ExtractState, 'decisions' | 'questions'>, record: Pick<MessageRecord, 'id' | 'seq' | 'role' | 'content'>): void {
  if (record.role !== 'user' && record.role !== 'assistant') return;
  const text = record.content.slice(0, 8 * 1024);
  if (text.trim().length === 0) return;
  state.questions = state.questions.filter((q) => q.role === record.role);
  let decided = false;
  const out: string[] = [];
  let inCode = false;
  for (const line of text.split('\n')) {
    if (line.trimStart().startsWith('```')) {
      inCode = !inCode;
      continue;
    }
    if (inCode) continue;
    for (const part of line.split(/(?<=[.!?])\s+(?=[A-Z"'(`])/)) {
      const s = part.trim().replace(/^[-*+]\s+|^\d+[.)]\s+/, '');
      if (s.length >= 8) out.push(s);
    }
  }
  const quote = (t: string) => {
    const flat = t.replace(/\s+/g, ' ').trim();
    return flat.length <= ITEM_MAX_CHARS ? flat : `${flat.slice(0, ITEM_MAX_CHARS - 1)}…`;
  };
  for (const sentence of out) {
    if (!decided) {
      const kind: ItemKind | null = CONSTRAINT.test(sentence) ? 'constraint' : DECISION.test(sentence) ? 'decision' : null;
      if (kind) {
        state.decisions.push({ id: record.id, seq: record.seq, role: record.role, text: quote(sentence), kind });
        if (state.decisions.length > DECISIONS_EARLY + DECISIONS_LATE) state.decisions.splice(DECISIONS_EARLY, 1);
        decided = true;
      }
    }
    if (sentence.endsWith('?')) {
      state.questions = state.questions.filter((q) => q.id !== record.id);
      state.questions.push({ id: record.id, seq: record.seq, role: record.role, text: quote(sentence) });
      if (state.questions.length > QUESTIONS_MAX) state.questions.shift();
    }
  }
}

// Words the rules look for, next to letters, digits, punctuation and whitespace that may hide or split them.
const piece = fc.oneof(
  fc.constantFrom('must', "mustn't", 'never', 'always', "don't", 'do not', 'should', 'only use', 'required', 'make sure', 'at most', 'without breaking'),
  fc.constantFrom('decided', "we'll", 'we should', "let's use", 'lets go', 'going with', 'agreed', 'instead of', "won't", 'the plan is', 'plan:', 'plan: x'),
  fc.constantFrom(' ', '  ', '\n', '\r\n', '\t', '\u00a0', '. ', '? ', '! ', '?', '.', '- ', '* ', '1. ', '2) ', '```', '```ts\n', '_', 'x', 'A', 'The', '9', '"', "'", '(', '`', 'é', '😀', 'mustard', 'forever', 'nevermore', 'plans'),
  fc.string({ maxLength: 12 }),
);
const message = fc.record({
  role: fc.constantFrom('user', 'assistant', 'tool', 'system'),
  content: fc.oneof(fc.array(piece, { maxLength: 40 }).map((p) => p.join('')), fc.string({ maxLength: 200 })),
});

describe('extendWith: the sentence pass runs only where a sentence can matter', () => {
  it('keeps the decisions and questions of splitting every message, over 3,000 generated conversations', () => {
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 30 }), (messages) => {
        const state = emptyState();
        const reference = { decisions: [] as ExtractState['decisions'], questions: [] as ExtractState['questions'] };
        messages.forEach((m, seq) => {
          const record = { ...m, id: `m${seq}`, seq, crc: '0', createdAt: '2026-12-02T00:00:00Z' } as MessageRecord;
          extendWith(state, record);
          referenceSentences(reference, record);
        });
        expect(state.decisions).toEqual(reference.decisions);
        expect(state.questions).toEqual(reference.questions);
      }),
      { numRuns: 3_000 },
    );
  });

  it('finds a rule past the first sentence, and a question after the decision', () => {
    const state = emptyState();
    extendWith(state, { id: 'a', seq: 0, role: 'user', content: 'Here is the task for today. You must keep the API stable. Can you start now?', crc: '0', createdAt: '' } as MessageRecord);
    expect(state.decisions.map((d) => [d.kind, d.text])).toEqual([['constraint', 'You must keep the API stable.']]);
    expect(state.questions.map((q) => q.text)).toEqual(['Can you start now?']);
  });
});
