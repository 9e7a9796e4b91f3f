import MiniSearch from 'minisearch';
import type { MessageRecord } from '../../shared/message.js';

/**
 * The full-text index over what was said in Baton's sessions (minisearch). One document per
 * chunk of CHUNK_MESSAGES consecutive messages of a session, not per message: a term repeated in a
 * chunk is one posting, which keeps 1 M messages under the memory target (bench/search). A hit
 * names a session and a seq range; the exact messages are found by reading that range.
 */
export const CHUNK_MESSAGES = 200;
/** Index format: bump when the fields or the chunking change (an old file is then rebuilt). */
export const INDEX_VERSION = 2;

export interface ChunkDoc {
  id: string;
  sessionId: string;
  firstSeq: number;
  text: string;
}

export interface ChunkHit {
  sessionId: string;
  firstSeq: number;
  score: number;
}

const OPTIONS = {
  fields: ['text'],
  storeFields: ['sessionId', 'firstSeq'],
  searchOptions: { prefix: (term: string, i: number, terms: string[]) => i === terms.length - 1, combineWith: 'AND' as const },
};

export function chunkOf(seq: number): number {
  return Math.floor(seq / CHUNK_MESSAGES) * CHUNK_MESSAGES;
}

/** What a message contributes to the index: its text, and its tool calls' names and inputs. */
export function searchableText(message: Pick<MessageRecord, 'content' | 'toolCalls'>): string {
  const calls = (message.toolCalls ?? []).map((c) => `${c.name} ${typeof c.input === 'string' ? c.input : JSON.stringify(c.input ?? '')}`);
  return calls.length === 0 ? message.content : `${message.content}\n${calls.join('\n')}`;
}

export class MessageIndex {
  private constructor(
    private readonly search: MiniSearch<ChunkDoc>,
    /** Per session: the highest seq indexed. */
    readonly indexedUpTo: Map<string, number>,
  ) {}

  static empty(): MessageIndex {
    return new MessageIndex(new MiniSearch<ChunkDoc>(OPTIONS), new Map());
  }

  /** From `toJSON()`'s text; undefined when it is damaged or of another version (then rebuilt). */
  static fromJSON(text: string): MessageIndex | undefined {
    try {
      const parsed = JSON.parse(text) as { version?: number; indexedUpTo?: Record<string, number>; index?: unknown };
      if (parsed.version !== INDEX_VERSION || parsed.index === undefined || parsed.indexedUpTo === undefined) return undefined;
      const search = MiniSearch.loadJS<ChunkDoc>(parsed.index as Parameters<typeof MiniSearch.loadJS>[0], OPTIONS);
      return new MessageIndex(search, new Map(Object.entries(parsed.indexedUpTo)));
    } catch {
      return undefined;
    }
  }

  toJSON(): string {
    return JSON.stringify({ version: INDEX_VERSION, indexedUpTo: Object.fromEntries(this.indexedUpTo), index: this.search.toJSON() });
  }

  get documentCount(): number {
    return this.search.documentCount;
  }

  /**
   * Indexes `messages` of a session: every chunk they touch is (re)built from `chunkMessages`,
   * which must hold all of that chunk's messages (the caller reads from the chunk's first seq).
   */
  addMessages(sessionId: string, chunkMessages: readonly MessageRecord[]): void {
    const byChunk = new Map<number, string[]>();
    for (const m of chunkMessages) {
      const first = chunkOf(m.seq);
      let texts = byChunk.get(first);
      if (texts === undefined) byChunk.set(first, (texts = []));
      texts.push(searchableText(m));
    }
    for (const [firstSeq, texts] of byChunk) {
      const id = `${sessionId}:${firstSeq}`;
      if (this.search.has(id)) this.search.discard(id);
      this.search.add({ id, sessionId, firstSeq, text: texts.join('\n') });
    }
    const last = chunkMessages.at(-1)?.seq;
    if (last !== undefined && last > (this.indexedUpTo.get(sessionId) ?? -1)) this.indexedUpTo.set(sessionId, last);
  }

  removeSession(sessionId: string): void {
    const upTo = this.indexedUpTo.get(sessionId);
    if (upTo === undefined) return;
    for (let first = 0; first <= upTo; first += CHUNK_MESSAGES) {
      const id = `${sessionId}:${first}`;
      if (this.search.has(id)) this.search.discard(id);
    }
    this.indexedUpTo.delete(sessionId);
  }

  /** Chunks holding every term of `query` (the last one as a prefix), best first. */
  query(query: string, sessionId?: string): ChunkHit[] {
    const results = this.search.search(query, sessionId === undefined ? undefined : { filter: (r) => r.sessionId === sessionId });
    return results.map((r) => ({ sessionId: r.sessionId as string, firstSeq: r.firstSeq as number, score: r.score }));
  }

  /** The index's own tokenizer, so exact matching in a message agrees with the index. */
  static terms(query: string): string[] {
    return MiniSearch.getDefault('tokenize')(query).map((t: string) => t.toLowerCase()).filter((t: string) => t.length > 0);
  }
}
