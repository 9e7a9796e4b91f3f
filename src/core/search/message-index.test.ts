import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { MessageRecord } from '../../shared/message.js';
import { POSITIONS_MAX } from './compact-postings.js';
import { CHUNK_MESSAGES, type ChunkHit, chunkOf, MessageIndex, PREFIX_TERMS_MAX, SCORED_CHUNKS_MAX } from './message-index.js';

const msg = (seq: number, content: string): MessageRecord => ({ seq, role: seq % 2 ? 'assistant' : 'user', content, id: `m${seq}`, createdAt: "2026-11-30T00:00:00.000Z", crc: "0" });

/**
 * A corpus the test knows word by word, without the product's tokenizer: each message is a list of
 * words (any case) joined by separators the way agents write them (Markdown backticks and bold,
 * file names, tabs, arrows, dashes), so "`worker-12.ts`" is known to hold worker, 12 and ts.
 */
interface Said {
  text: string;
  words: string[];
}

/**
 * What the index must answer, from a plain scan of the known words: per chunk, the seqs of the
 * messages that hold every query word (the last as a prefix), as `session:firstSeq → seqs`; chunks
 * with none left out. Words compare in lowercase.
 */
function naive(corpus: Map<string, Said[]>, queryWords: readonly string[]): string[] {
  const terms = queryWords.map((w) => w.toLowerCase());
  const chunks = new Map<string, number[]>();
  for (const [session, messages] of corpus) {
    messages.forEach((said, seq) => {
      const words = new Set(said.words.map((w) => w.toLowerCase()));
      const ok = terms.every((term, i) => (i === terms.length - 1 ? [...words].some((w) => w.startsWith(term)) : words.has(term)));
      if (!ok) return;
      const key = `${session}:${chunkOf(seq)}`;
      chunks.set(key, [...(chunks.get(key) ?? []), seq]);
    });
  }
  return [...chunks].map(([key, seqs]) => `${key} → ${seqs.join(',')}`).sort();
}

const keys = (hits: ChunkHit[]) => hits.map((h) => `${h.sessionId}:${h.firstSeq} → ${h.seqs().join(',')}`).sort();

/** Fewer than PREFIX_TERMS_MAX words share a prefix, so every prefix match is in the answer. */
const WORDS = ['alpha', 'Alps', 'beta', 'gamma', 'gam', 'delta', 'worker', 'Worker17', '12', '120', 'ts', 'TSX', 'x', 'timeout', 'café', 'Ünïcode', 'naïve'];
const SEPARATORS = [' ', '-', '.', '`', '**', '\t', '\n', ', ', '/', '_', '(', ')', '+', '=', '|', '~', '$', ' — ', '::', '"', ' → ', ' ✓ ', '\u00a0', '#', '<', '>', '@', '\\'];
const word = fc.constantFrom(...WORDS);
const separator = fc.constantFrom(...SEPARATORS);

/** Words joined by separators, maybe wrapped in more (a leading backtick, a trailing period). */
const phrase = (words: fc.Arbitrary<string[]>) =>
  fc.tuple(words, fc.array(separator, { minLength: 7, maxLength: 7 }), fc.boolean()).map(([ws, seps, wrap]) => {
    const joined = ws.map((w, i) => (i === 0 ? w : seps[i % seps.length]! + w)).join('');
    return { text: wrap ? `${seps[0]}${joined}${seps[1]}` : joined, words: ws };
  });
const message = phrase(fc.array(word, { minLength: 1, maxLength: 6 }));
/**
 * Up to two chunks and a bit (the length drawn uniformly: fast-check's default size keeps arrays
 * near ten), and now and then one word said in every message, so it is in all the messages of a
 * chunk and in more than 255 of the session.
 */
const session = fc
  .tuple(fc.integer({ min: 1, max: CHUNK_MESSAGES * 2 + 5 }), fc.option(word, { freq: 3 }), fc.array(separator, { minLength: 1, maxLength: 1 }))
  .chain(([n, everywhere, [sep]]) =>
    fc.array(message, { minLength: n, maxLength: n }).map((said) => (everywhere === null ? said : said.map((m) => ({ text: `${m.text}${sep}${everywhere}`, words: [...m.words, everywhere] })))),
  );
/** One to three words, the last maybe cut to a prefix, typed with any separators and case. */
const query = fc
  .tuple(fc.array(word, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 8 }), fc.array(separator, { minLength: 40, maxLength: 40 }), fc.boolean())
  .map(([ws, cut, seps, upper]) => {
    const words = ws.map((w, i) => (i === ws.length - 1 ? w.slice(0, cut) : w)).map((w) => (upper ? w.toUpperCase() : w));
    return { text: words.map((w, i) => (i === 0 ? w : seps[i]! + w)).join(''), words };
  });

const index = (messages: readonly Said[], from = 0) => messages.map((m, i) => msg(from + i, m.text));

describe('message index (typed-array postings)', () => {
  it('agrees at message level with a plain scan over 300 random corpora of punctuated words (one to three words), through re-indexing, growth, removal, compaction and a save/load', () => {
    fc.assert(
      fc.property(fc.array(session, { minLength: 1, maxLength: 5 }), query, fc.integer({ min: 0, max: 4 }), fc.option(session), session, (sessions, q, removeAt, reborn, more) => {
        let ix = MessageIndex.empty();
        const corpus = new Map<string, Said[]>();
        const check = () => {
          expect(keys(ix.query(q.text))).toEqual(naive(corpus, q.words));
          for (const [id, said] of corpus) expect(keys(ix.query(q.text, id))).toEqual(naive(new Map([[id, said]]), q.words));
        };
        sessions.forEach((said, s) => {
          const id = `s${s}`;
          // Indexed twice (as a live session is: the last chunk again): the old chunk is a tombstone.
          ix.addMessages(id, index(said));
          const last = chunkOf(said.length - 1);
          ix.addMessages(id, index(said.slice(last), last));
          corpus.set(id, said);
        });
        check();
        if (removeAt < sessions.length) {
          // Removing a session (most of the postings, often) compacts the index.
          ix.removeSession(`s${removeAt}`);
          corpus.delete(`s${removeAt}`);
          if (reborn !== null) {
            // The same id again, saying other things.
            ix.addMessages(`s${removeAt}`, index(reborn));
            corpus.set(`s${removeAt}`, reborn);
          }
          check();
        }
        ix = MessageIndex.fromBytes(ix.toBytes())!;
        check();
        // A loaded index grows: session 0 gains messages (its last chunk is rebuilt from its first seq).
        const s0 = corpus.get('s0');
        if (s0 !== undefined) {
          const grown = [...s0, ...more];
          const last = chunkOf(s0.length - 1);
          ix.addMessages('s0', index(grown.slice(last), last));
          corpus.set('s0', grown);
          check();
        }
      }),
      { numRuns: 300 },
    );
  });

  it('the e2e large session: "worker ts", "timeout worker" and "worker-12.ts" find the messages that say `worker-K.ts`', () => {
    // Shaped like e2e/support/large-session.ts: Markdown bold and a file name in backticks.
    const texts = Array.from({ length: 3 * CHUNK_MESSAGES }, (_, n) => `Step ${n}: check the **timeout** handling in \`worker-${n % 97}.ts\`.`);
    const ix = MessageIndex.empty();
    ix.addMessages('large', texts.map((t, seq) => msg(seq, t)));
    const seqs = (q: string) => ix.query(q).flatMap((h) => h.seqs()).sort((a, b) => a - b);
    const all = texts.map((_, seq) => seq);
    expect(MessageIndex.terms(texts[12]!)).toEqual(['step', '12', 'check', 'the', 'timeout', 'handling', 'in', 'worker', '12', 'ts']);
    expect(seqs('worker ts')).toEqual(all);
    expect(seqs('timeout worker')).toEqual(all);
    expect(seqs('worker-12.ts')).toEqual(all.filter((n) => n % 97 === 12 || n === 12));
    expect(seqs('`worker-12.ts`')).toEqual(seqs('worker-12.ts'));
    expect(seqs('**timeout** handling\tin')).toEqual(all);
    // "worker" is in all 200 messages of each chunk (200 offsets in one posting), also after a save/load.
    const loaded = MessageIndex.fromBytes(ix.toBytes())!;
    expect(loaded.query('worker ts').flatMap((h) => h.seqs()).sort((a, b) => a - b)).toEqual(all);
    expect(loaded.query('worker-12.ts').flatMap((h) => h.seqs()).sort((a, b) => a - b)).toEqual(seqs('worker-12.ts'));
  });

  it('the last word matches the exact word and at most PREFIX_TERMS_MAX - 1 longer ones, in sorted order', () => {
    const ix = MessageIndex.empty();
    // "12" and 100 words that start with it, one message each.
    const texts = ['worker 12', ...Array.from({ length: 100 }, (_, i) => `worker 12${i}`)];
    ix.addMessages('s', texts.map((t, seq) => msg(seq, t)));
    const expected = texts
      .map((t, seq) => [t.split(' ')[1]!, seq] as const)
      .sort((a, b) => (a[0] === '12' ? -1 : b[0] === '12' ? 1 : a[0] < b[0] ? -1 : 1))
      .slice(0, PREFIX_TERMS_MAX)
      .map(([, seq]) => seq)
      .sort((a, b) => a - b);
    expect(ix.query('worker 12').flatMap((h) => h.seqs())).toEqual(expected);
    // A longer prefix reaches the words the cap left out.
    expect(ix.query('worker 1299').flatMap((h) => h.seqs())).toEqual([100]);
    expect(ix.query('worker 12999')).toEqual([]);
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

describe('loading a big index without holding the event loop', () => {
  it('fromBytesInSlices answers like fromBytes, and the loop turns while it loads (60,000 distinct terms)', async () => {
    const ix = MessageIndex.empty();
    // A number per message, like the 1 GB bench session: one term per message.
    for (let from = 0; from < 60_000; from += CHUNK_MESSAGES) ix.addMessages('s-big', Array.from({ length: CHUNK_MESSAGES }, (_, i) => msg(from + i, `message ${from + i} about the worker`)));
    ix.addMessages('s-small', [msg(0, 'the pangolin worker')]);
    const bytes = ix.toBytes();
    let turns = 0;
    let loading = true;
    const tick = () => {
      turns++;
      if (loading) setImmediate(tick);
    };
    setImmediate(tick);
    const sliced = (await MessageIndex.fromBytesInSlices(bytes))!;
    loading = false;
    const whole = MessageIndex.fromBytes(bytes)!;
    expect(turns).toBeGreaterThan(1);
    for (const q of ['worker', '41234', 'pangolin worker', 'message 59999', 'nothing-here']) {
      const hits = (index: MessageIndex) => index.query(q).map((h) => [h.sessionId, h.firstSeq, h.seqs()]);
      expect(hits(sliced), q).toEqual(hits(whole));
    }
    expect(sliced.query('41234').flatMap((h) => h.seqs())).toEqual([41234]);
    expect(sliced.indexedUpTo).toEqual(whole.indexedUpTo);
    // Stopped between slices (a host closing): nothing, rather than a part.
    expect(await MessageIndex.fromBytesInSlices(bytes, () => true)).toBeUndefined();
    // Damage is refused the same way.
    expect(await MessageIndex.fromBytesInSlices(bytes.subarray(0, bytes.length - 4))).toBeUndefined();
  });
});
