import type { MessageInput } from '../../shared/message.js';
import { canonicalJson } from './canonical.js';
import { StoreError } from './errors.js';

export interface FoldedInput {
  messages: MessageInput[];
  /** One sentence per id that was given more than once with the same message, for session.json's notes. */
  notes: string[];
}

/**
 * The log keeps the first record of an id, so the same id twice in a new session's input would
 * store fewer messages than counted. The same message repeated (a transcript written twice) is
 * folded into one with a note; the same id on different messages is refused before anything is
 * written, naming the id and both positions, because either choice would silently drop one.
 */
export function foldDuplicateIds(input: readonly MessageInput[], sessionId: string): FoldedInput {
  // Canonical JSON only for an id seen twice: an import gives every message an id, and
  // canonicalising them all cost a second serialisation of the whole session.
  const first = new Map<string, { index: number; message: MessageInput; canonical?: string }>();
  const repeats = new Map<string, number[]>();
  const messages: MessageInput[] = [];
  input.forEach((message, index) => {
    if (message.id === undefined) return void messages.push(message);
    const seen = first.get(message.id);
    if (!seen) {
      first.set(message.id, { index, message });
      messages.push(message);
      return;
    }
    seen.canonical ??= canonicalJson(seen.message);
    if (seen.canonical !== canonicalJson(message)) {
      throw new StoreError(
        'BAD_REQUEST',
        `Session ${sessionId} was not saved: messages ${seen.index + 1} and ${index + 1} both have id ${JSON.stringify(message.id)} but differ; give each message its own id (or none).`,
      );
    }
    repeats.set(message.id, [...(repeats.get(message.id) ?? []), index + 1]);
  });
  const notes = [...repeats].map(([id, at]) => `message id ${JSON.stringify(id)} was given ${at.length + 1} times with the same content (messages ${[first.get(id)!.index + 1, ...at].join(', ')}); it was stored once.`);
  return { messages, notes };
}
