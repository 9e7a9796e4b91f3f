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
 * folded into one with a note; the same id on different messages is refused, naming the id and
 * both positions, because either choice would silently drop one.
 */
export function foldDuplicateIds(input: readonly MessageInput[], sessionId: string): FoldedInput {
  const folder = new DuplicateFolder(sessionId);
  const messages = input.filter((message, index) => folder.keep(message, index));
  return { messages, notes: folder.notes() };
}

/**
 * The fold, one message at a time (issue 20: a streamed landing never holds the session). With
 * `tracked`, only the ids it names are remembered: a first pass over the input found which ids
 * may repeat, so memory is that handful, not a map of every id. Without it, every id is (the input
 * is an array in memory anyway).
 */
export class DuplicateFolder {
  // Canonical JSON only for an id seen twice when every id is tracked: canonicalising all of an
  // import's messages cost a second serialisation of the whole session.
  private readonly first = new Map<string, { index: number; message?: MessageInput; canonical?: string }>();
  private readonly repeats = new Map<string, number[]>();

  constructor(
    private readonly sessionId: string,
    private readonly tracked?: (id: string) => boolean,
  ) {}

  /** True when the message is stored; false when it repeats an earlier one; throws when it contradicts one. */
  keep(message: MessageInput, index: number): boolean {
    if (message.id === undefined || (this.tracked && !this.tracked(message.id))) return true;
    const seen = this.first.get(message.id);
    if (!seen) {
      // Tracked ids are few and the message is not kept by anyone else: its canonical form is.
      this.first.set(message.id, this.tracked ? { index, canonical: canonicalJson(message) } : { index, message });
      return true;
    }
    seen.canonical ??= canonicalJson(seen.message);
    seen.message = undefined;
    if (seen.canonical !== canonicalJson(message)) {
      throw new StoreError(
        'BAD_REQUEST',
        `Session ${this.sessionId} was not saved: messages ${seen.index + 1} and ${index + 1} both have id ${JSON.stringify(message.id)} but differ; give each message its own id (or none).`,
      );
    }
    this.repeats.set(message.id, [...(this.repeats.get(message.id) ?? []), index + 1]);
    return false;
  }

  notes(): string[] {
    return [...this.repeats].map(([id, at]) => `message id ${JSON.stringify(id)} was given ${at.length + 1} times with the same content (messages ${[this.first.get(id)!.index + 1, ...at].join(', ')}); it was stored once.`);
  }
}
