import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { MessageRecord } from '../../shared/message.js';
import { POSITIONS_MAX } from './compact-postings.js';
import { CHUNK_MESSAGES, type ChunkHit, chunkOf, MessageIndex, SCORED_CHUNKS_MAX } from './message-index.js';

const msg = (seq: number, content: string): MessageRecord => ({ seq, role: seq % 2 ? 'assistant' : 'user', content, id: `m${seq}`, createdAt: "2026-11-30T00:00:00.000Z", crc: "0" });

/**
 * What the index must answer, from a plain scan of the text: per chunk, the seqs of the messages
 * that hold every term (the last as a prefix), as `session:firstSeq → seqs`; chunks with none left out.
 */
function naive(corpus: Map<string, string[]>, query: string): string[] {
  const terms = MessageIndex.terms(query);
  if (terms.length === 0) return [];
  const chunks = new Map<string, number[]>();
  for (const [session, messages] of corpus) {
    messages.forEach((text, seq) => {
      const words = new Set(MessageIndex.terms(text));
      const ok = terms.every((term, i) => (i === terms.length - 1 ? [...words].some((w) => w.startsWith(term)) : words.has(term)));
      if (!ok) return;
      const key = `${session}:${chunkOf(seq)}`;
      chunks.set(key, [...(chunks.get(key) ?? []), seq]);
    });
  }
  return [...chunks].map(([key, seqs]) => `${key} → ${seqs.join(',')}`).sort();
}

const keys = (hits: ChunkHit[]) => hits.map((h) => `${h.sessionId}:${h.firstSeq} → ${h.seqs().join(',')}`).sort();

describe('message index (typed-array postings)', () => {
  it('agrees at message level with a scan of the text over 300 random corpora (one to three words), through re-indexing, removal, compaction and a save/load', () => {
    const word = fc.constantFrom('alpha', 'alps', 'beta', 'gamma', 'gam', 'delta', 'worker17', 'ts', 'x');
    const session = fc.array(fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(' ')), { minLength: 1, maxLength: CHUNK_MESSAGES * 2 + 5 });
    fc.assert(
      fc.property(fc.array(session, { minLength: 1, maxLength: 5 }), fc.array(word, { minLength: 1, maxLength: 3 }), fc.integer({ min: 0, max: 4 }), (sessions, queryWords, removeAt) => {
        let index = MessageIndex.empty();
        const corpus = new Map<string, string[]>();
        sessions.forEach((texts, s) => {
          const id = `s${s}`;
          // Indexed twice (as a live session is: the last chunk again): the old chunk is a tombstone.
          index.addMessages(id, texts.map((t, seq) => msg(seq, t)));
          index.addMessages(id, texts.slice(chunkOf(texts.length - 1)).map((t, i) => msg(chunkOf(texts.length - 1) + i, t)));
          corpus.set(id, texts);
        });
        if (removeAt < sessions.length) {
          index.removeSession(`s${removeAt}`);
          corpus.delete(`s${removeAt}`);
        }
        const query = queryWords.join(' ');
        expect(keys(index.query(query))).toEqual(naive(corpus, query));
        index = MessageIndex.fromBytes(index.toBytes())!;
        expect(keys(index.query(query))).toEqual(naive(corpus, query));
        for (const id of corpus.keys()) expect(keys(index.query(query, id))).toEqual(naive(new Map([[id, corpus.get(id)!]]), query));
      }),
      { numRuns: 300 },
    );
  });

  it("a chunk's message offsets fit the one byte per position the postings store", () => {
    expect(CHUNK_MESSAGES).toBeLessThanOrEqual(POSITIONS_MAX + 1);
  });

  it('names the messages holding every word; words in one chunk but never one message are no hit', () => {
    const index = MessageIndex.empty();
    const texts = Array.from({ length: CHUNK_MESSAGES }, (_, seq) => (seq === 7 ? 'mifuka alone' : seq === 150 ? 'tenkaka alone' : seq === 199 || seq === 0 ? 'tenkaka and mifuka' : 'filler'));
    index.addMessages('s', texts.map((t, seq) => msg(seq, t)));
    expect(index.query('mifuka tenkaka').map((h) => h.seqs())).toEqual([[0, 199]]);
    expect(index.query('mifuka alone').map((h) => h.seqs())).toEqual([[7]]);
    expect(index.query('alone and')).toEqual([]);
    expect(index.query('tenk').map((h) => h.seqs())).toEqual([[0, 150, 199]]);
  });

  it('ranks a chunk that says the word more often first, and newer chunks first on a tie', () => {
    const index = MessageIndex.empty();
    index.addMessages('old', [msg(0, 'cache')]);
    index.addMessages('new', [msg(0, 'cache')]);
    index.addMessages('loud', [msg(0, 'cache cache'), msg(1, 'cache')]);
    expect(index.query('cache').map((h) => h.sessionId)).toEqual(['loud', 'new', 'old']);
  });

  it('a word in every chunk scores only its newest SCORED_CHUNKS_MAX chunks; a rarer word in the query is never cut', () => {
    const index = MessageIndex.empty();
    const sessions = SCORED_CHUNKS_MAX + 10;
    for (let s = 0; s < sessions; s++) index.addMessages(`s${s}`, [msg(0, s === 3 ? 'common rare' : 'common')]);
    const common = index.query('common');
    expect(common).toHaveLength(SCORED_CHUNKS_MAX);
    expect(common[0]!.sessionId).toBe(`s${sessions - 1}`);
    // "rare" is the rarest term, so it picks the candidates: the old session 3 is found.
    expect(index.query('common rare').map((h) => h.sessionId)).toEqual(['s3']);
  });

  it('refuses a damaged or truncated file (undefined: the caller rebuilds from the logs)', () => {
    const index = MessageIndex.empty();
    index.addMessages('a', [msg(0, 'pangolin migration')]);
    const bytes = index.toBytes();
    expect(MessageIndex.fromBytes(bytes)?.query('pangolin')).toHaveLength(1);
    expect(MessageIndex.fromBytes(bytes.subarray(0, bytes.length - 4))).toBeUndefined();
    expect(MessageIndex.fromBytes(Buffer.concat([bytes, Buffer.alloc(4)]))).toBeUndefined();
    const otherVersion = Buffer.from(bytes);
    otherVersion.writeUInt32LE(2, 4);
    expect(MessageIndex.fromBytes(otherVersion)).toBeUndefined();
    expect(MessageIndex.fromBytes(Buffer.from('{"version":2}'))).toBeUndefined();
  });
});
