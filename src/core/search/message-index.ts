import type { MessageRecord } from '../../shared/message.js';
import { CompactPostings, positionStarts, type SerializedPostings } from './compact-postings.js';
import { termsOf } from '../../shared/search-terms.js';

/**
 * The full-text index over what was said in Baton's sessions. One document per chunk of
 * CHUNK_MESSAGES consecutive messages of a session, not per message: a term repeated in a chunk is
 * one posting. Postings live in typed arrays (compact-postings.ts): minisearch's Maps cost 267 MB
 * of heap for 1 M messages, this well under the 150 MB target (bench/search). Each posting also
 * keeps the offsets (0–199, one byte each) of the chunk's messages that hold the term, so a query
 * of several words intersects at message level before anything is read: two words that share
 * chunks but rarely a message used to cost a read of every such chunk. A hit names a session, its
 * chunk and the seqs of the messages holding every term.
 */
export const CHUNK_MESSAGES = 200;
/**
 * Index format: bump when the fields, the chunking, the tokenizer or the layout change (an old file
 * is then rebuilt). 5: words split on symbols too (src/shared/search-terms.ts); 4 had minisearch's tokenizer.
 */
export const INDEX_VERSION = 5;
/**
 * A very common word (in most chunks) scores only its newest SCORED_CHUNKS_MAX chunks: the answer
 * lists 20 sessions, and scoring every chunk of a word said everywhere is what made such queries
 * slow. Rare words are never capped.
 */
export const SCORED_CHUNKS_MAX = 4_096;
/** The last query term matches as a prefix: at most this many terms it starts. */
export const PREFIX_TERMS_MAX = 64;
/** Removed chunks' postings are dropped once they are this share of all postings. */
export const COMPACT_DEAD_SHARE = 0.25;
/** A prefix match weighs this much of an exact one. */
const PREFIX_WEIGHT = 0.5;
const MAGIC = 0x49535442; // "BTSI"

export interface ChunkHit {
  sessionId: string;
  firstSeq: number;
  score: number;
  /**
   * The seqs of the chunk's messages that hold every term (the last as a prefix), ascending and
   * never empty. Computed on first call from the index as it is: call it before the index changes.
   */
  seqs(): number[];
}

export function chunkOf(seq: number): number {
  return Math.floor(seq / CHUNK_MESSAGES) * CHUNK_MESSAGES;
}

/** What a message contributes to the index: its text, and its tool calls' names and inputs. */
export function searchableText(message: Pick<MessageRecord, 'content' | 'toolCalls'>): string {
  const calls = (message.toolCalls ?? []).map((c) => `${c.name} ${typeof c.input === 'string' ? c.input : JSON.stringify(c.input ?? '')}`);
  return calls.length === 0 ? message.content : `${message.content}\n${calls.join('\n')}`;
}

interface Group {
  lists: Uint32Array[];
  /** Per list: the term's positions, and where each posting's start (filled on first use). */
  positions: Uint8Array[];
  starts: (Uint32Array | undefined)[];
  weights: number[];
  df: number;
}
/** A chunk's messages as a 256-bit set (8 words), so a group's union and the groups' intersection are word operations. */
const BITMAP_WORDS = 8;

/** The JSON header of the index file (toBytes). */
interface IndexHeader {
  indexedUpTo: Record<string, number>;
  sessions: string[];
  terms: string[];
  postings: number;
  positions: number;
  docs: number;
}

export class MessageIndex {
  private chunkSession = new Uint32Array(1024);
  private chunkFirstSeq = new Uint32Array(1024);
  private readonly sessionNums = new Map<string, number>();
  private readonly sessionNames: string[] = [];
  /** Per session: firstSeq → chunk (doc) id. */
  private readonly sessionChunks = new Map<string, Map<number, number>>();

  private constructor(
    private readonly postings: CompactPostings,
    /** Per session: the highest seq indexed. */
    readonly indexedUpTo: Map<string, number>,
  ) {}

  static empty(): MessageIndex {
    return new MessageIndex(new CompactPostings(), new Map());
  }

  /** The index's own tokenizer, so exact matching in a message agrees with the index. */
  static terms(query: string): string[] {
    return termsOf(query);
  }

  get documentCount(): number {
    let n = 0;
    for (const chunks of this.sessionChunks.values()) n += chunks.size;
    return n;
  }

  /**
   * Indexes `messages` of a session: every chunk they touch is (re)built from `chunkMessages`,
   * which must hold all of that chunk's messages (the caller reads from the chunk's first seq).
   */
  addMessages(sessionId: string, chunkMessages: readonly MessageRecord[]): void {
    // Per chunk: term → the offsets of the messages holding it (a term counts once per message).
    const byChunk = new Map<number, Map<string, number[]>>();
    const ordered = [...chunkMessages].sort((a, b) => a.seq - b.seq);
    for (const m of ordered) {
      const first = chunkOf(m.seq);
      const offset = m.seq - first;
      let tf = byChunk.get(first);
      if (tf === undefined) byChunk.set(first, (tf = new Map()));
      for (const term of MessageIndex.terms(searchableText(m))) {
        const at = tf.get(term);
        if (at === undefined) tf.set(term, [offset]);
        else if (at.at(-1) !== offset) at.push(offset);
      }
    }
    const session = this.sessionNum(sessionId);
    let chunks = this.sessionChunks.get(sessionId);
    if (chunks === undefined) this.sessionChunks.set(sessionId, (chunks = new Map()));
    for (const [firstSeq, tf] of byChunk) {
      const old = chunks.get(firstSeq);
      if (old !== undefined) this.postings.remove(old);
      const doc = this.postings.add(tf);
      this.chunkSession = grow(this.chunkSession, doc + 1);
      this.chunkFirstSeq = grow(this.chunkFirstSeq, doc + 1);
      this.chunkSession[doc] = session;
      this.chunkFirstSeq[doc] = firstSeq;
      chunks.set(firstSeq, doc);
    }
    const last = chunkMessages.at(-1)?.seq;
    if (last !== undefined && last > (this.indexedUpTo.get(sessionId) ?? -1)) this.indexedUpTo.set(sessionId, last);
    if (this.postings.deadShare > COMPACT_DEAD_SHARE) this.compact();
  }

  removeSession(sessionId: string): void {
    for (const doc of this.sessionChunks.get(sessionId)?.values() ?? []) this.postings.remove(doc);
    this.sessionChunks.delete(sessionId);
    this.indexedUpTo.delete(sessionId);
    if (this.postings.deadShare > COMPACT_DEAD_SHARE) this.compact();
  }

  /**
   * Chunks where one message holds every term of `query` (the last one as a prefix), best first
   * (newest first on a tie). The score counts, per term, the chunk's messages holding it.
   */
  query(query: string, sessionId?: string): ChunkHit[] {
    const terms = MessageIndex.terms(query);
    if (terms.length === 0) return [];
    const groups = terms.map((term, i) => this.group(term, i === terms.length - 1)).sort((a, b) => a.df - b.df);
    if (groups[0]!.df === 0) return [];
    const docs = this.postings.docCount;
    const idf = (g: Group) => Math.log(1 + docs / g.df);
    // Candidates: the rarest term's chunks (one session's chunks when asked for one session).
    const scores = new Map<number, number>();
    if (sessionId !== undefined) {
      for (const doc of this.sessionChunks.get(sessionId)?.values() ?? []) {
        const s = tfScore(groups[0]!, doc);
        if (s > 0) scores.set(doc, s * idf(groups[0]!));
      }
    } else {
      const first = groups[0]!;
      first.lists.forEach((list, li) => {
        // Newest chunks first; a very common word stops at SCORED_CHUNKS_MAX of them.
        for (let i = list.length - 1, taken = 0; i >= 0 && taken < SCORED_CHUNKS_MAX; i--) {
          const doc = Math.floor(list[i]! / 256);
          if (!this.postings.isAlive(doc)) continue;
          taken++;
          scores.set(doc, (scores.get(doc) ?? 0) + weightOf(list[i]!) * first.weights[li]! * idf(first));
        }
      });
    }
    for (const g of groups.slice(1)) {
      for (const [doc, score] of scores) {
        const s = tfScore(g, doc);
        if (s === 0) scores.delete(doc);
        else scores.set(doc, score + s * idf(g));
      }
    }
    // Several words: a chunk counts only when one of its messages holds them all (the positions
    // intersect), so no chunk is read to find that none does.
    const known = new Map<number, number[]>();
    if (groups.length > 1) {
      for (const doc of scores.keys()) {
        const seqs = this.messageSeqs(groups, doc);
        if (seqs.length === 0) scores.delete(doc);
        else known.set(doc, seqs);
      }
    }
    const ranked = [...scores].filter(([doc]) => this.postings.isAlive(doc)).sort((a, b) => b[1] - a[1] || b[0] - a[0]);
    return ranked.map(([doc, score]) => {
      let seqs = known.get(doc);
      return { sessionId: this.sessionNames[this.chunkSession[doc]!]!, firstSeq: this.chunkFirstSeq[doc]!, score, seqs: () => (seqs ??= this.messageSeqs(groups, doc)) };
    });
  }

  /** Binary layout: magic, version, header length, JSON header (sessions, terms, indexedUpTo), then Uint32 tables. */
  toBytes(): Buffer {
    if (this.postings.deadShare > 0) this.compact();
    const data = this.postings.serialize();
    const docs = data.docPostingCount.length;
    const header = Buffer.from(JSON.stringify({ indexedUpTo: Object.fromEntries(this.indexedUpTo), sessions: this.sessionNames, terms: data.terms, postings: data.postings.length, positions: data.positions.length, docs }), 'utf8');
    const headerPadded = Math.ceil(header.length / 4) * 4;
    // The byte table (positions) goes last, so every Uint32 table stays 4-byte aligned.
    const tables = [data.lengths, data.postings, data.positionLengths, data.docPostingCount, this.chunkSession.subarray(0, docs), this.chunkFirstSeq.subarray(0, docs), data.positions];
    const out = Buffer.alloc(12 + headerPadded + tables.reduce((n, t) => n + t.byteLength, 0));
    out.writeUInt32LE(MAGIC, 0);
    out.writeUInt32LE(INDEX_VERSION, 4);
    out.writeUInt32LE(header.length, 8);
    header.copy(out, 12);
    let at = 12 + headerPadded;
    for (const t of tables) {
      Buffer.from(t.buffer, t.byteOffset, t.byteLength).copy(out, at);
      at += t.byteLength;
    }
    return out;
  }

  /** From `toBytes()`; undefined when the file is damaged or of another version (then rebuilt). */
  static fromBytes(bytes: Buffer): MessageIndex | undefined {
    try {
      const parts = MessageIndex.tablesOf(bytes);
      return parts && MessageIndex.assemble(CompactPostings.deserialize(parts.postings), parts);
    } catch {
      return undefined;
    }
  }

  /** fromBytes without holding the event loop for the whole load (CompactPostings.deserializeInSlices); undefined once `stop()`. */
  static async fromBytesInSlices(bytes: Buffer, stop?: () => boolean): Promise<MessageIndex | undefined> {
    try {
      const parts = MessageIndex.tablesOf(bytes);
      const postings = parts && (await CompactPostings.deserializeInSlices(parts.postings, stop));
      return postings && MessageIndex.assemble(postings, parts);
    } catch {
      return undefined;
    }
  }

  /** The header and tables of `toBytes()`'s layout; undefined (or a throw) when they do not add up. */
  private static tablesOf(bytes: Buffer): { postings: SerializedPostings; header: IndexHeader; chunkSession: Uint32Array<ArrayBuffer>; chunkFirstSeq: Uint32Array<ArrayBuffer> } | undefined {
    if (bytes.length < 12 || bytes.readUInt32LE(0) !== MAGIC || bytes.readUInt32LE(4) !== INDEX_VERSION) return undefined;
    const headerLength = bytes.readUInt32LE(8);
    const header = JSON.parse(bytes.subarray(12, 12 + headerLength).toString('utf8')) as IndexHeader;
    let at = 12 + Math.ceil(headerLength / 4) * 4;
    const table = (n: number): Uint32Array<ArrayBuffer> => {
      if (at + n * 4 > bytes.length) throw new Error('search index: file shorter than its header says');
      const t = new Uint32Array(n);
      Buffer.from(t.buffer).set(bytes.subarray(at, at + n * 4));
      at += n * 4;
      return t;
    };
    const lengths = table(header.terms.length);
    const postings = table(header.postings);
    const positionLengths = table(header.terms.length);
    const docPostingCount = table(header.docs);
    const chunkSession = table(header.docs);
    const chunkFirstSeq = table(header.docs);
    if (!Number.isInteger(header.positions) || at + header.positions !== bytes.length) return undefined;
    const positions = new Uint8Array(bytes.subarray(at, at + header.positions));
    return { postings: { terms: header.terms, lengths, postings, positionLengths, positions, docPostingCount }, header, chunkSession, chunkFirstSeq };
  }

  private static assemble(postings: CompactPostings, { header, chunkSession, chunkFirstSeq }: { header: IndexHeader; chunkSession: Uint32Array<ArrayBuffer>; chunkFirstSeq: Uint32Array<ArrayBuffer> }): MessageIndex | undefined {
    const index = new MessageIndex(postings, new Map(Object.entries(header.indexedUpTo)));
    index.chunkSession = grow(chunkSession, 1024);
    index.chunkFirstSeq = grow(chunkFirstSeq, 1024);
    header.sessions.forEach((id, n) => {
      index.sessionNums.set(id, n);
      index.sessionNames.push(id);
    });
    for (let doc = 0; doc < header.docs; doc++) {
      const id = header.sessions[chunkSession[doc]!];
      if (id === undefined) return undefined;
      let chunks = index.sessionChunks.get(id);
      if (chunks === undefined) index.sessionChunks.set(id, (chunks = new Map()));
      chunks.set(chunkFirstSeq[doc]!, doc);
    }
    return index;
  }

  private sessionNum(id: string): number {
    let n = this.sessionNums.get(id);
    if (n === undefined) {
      n = this.sessionNames.length;
      this.sessionNums.set(id, n);
      this.sessionNames.push(id);
    }
    return n;
  }

  private group(term: string, prefix: boolean): Group {
    const terms = prefix ? this.postings.termsWithPrefix(term, PREFIX_TERMS_MAX) : [term];
    const lists = terms.map((t) => this.postings.postings(t));
    return { lists, positions: terms.map((t) => this.postings.positions(t)), starts: lists.map(() => undefined), weights: terms.map((t) => (t === term ? 1 : PREFIX_WEIGHT)), df: lists.reduce((n, l) => n + l.length, 0) };
  }

  /** The seqs of `doc`'s messages holding every group: per group the union of its terms' positions, then their intersection. */
  private messageSeqs(groups: Group[], doc: number): number[] {
    const all = new Uint32Array(BITMAP_WORDS).fill(0xffffffff);
    const one = new Uint32Array(BITMAP_WORDS);
    for (const g of groups) {
      one.fill(0);
      g.lists.forEach((list, li) => {
        const i = find(list, doc);
        if (i < 0) return;
        const starts = (g.starts[li] ??= positionStarts(list));
        const at = g.positions[li]!;
        for (let k = starts[i]!, end = k + (list[i]! % 256); k < end; k++) one[at[k]! >>> 5]! |= 1 << (at[k]! & 31);
      });
      for (let w = 0; w < BITMAP_WORDS; w++) all[w]! &= one[w]!;
    }
    const first = this.chunkFirstSeq[doc]!;
    const seqs: number[] = [];
    for (let w = 0; w < BITMAP_WORDS; w++) for (let b = 0; b < 32; b++) if ((all[w]! >>> b) & 1) seqs.push(first + w * 32 + b);
    return seqs;
  }

  /** Renumbers chunks after the postings drop removed ones. */
  private compact(): void {
    const map = this.postings.compact();
    const session = new Uint32Array(Math.max(1024, this.postings.docCount));
    const firstSeq = new Uint32Array(Math.max(1024, this.postings.docCount));
    for (let old = 0; old < map.length; old++) {
      const to = map[old]!;
      if (to < 0) continue;
      session[to] = this.chunkSession[old]!;
      firstSeq[to] = this.chunkFirstSeq[old]!;
    }
    this.chunkSession = session;
    this.chunkFirstSeq = firstSeq;
    for (const chunks of this.sessionChunks.values()) for (const [seq, doc] of chunks) chunks.set(seq, map[doc]!);
  }
}

/** BM25-like saturation of the term frequency packed in a posting's low byte. */
function weightOf(posting: number): number {
  const tf = posting % 256;
  return tf / (tf + 1.2);
}

/** The index of `doc`'s posting in a sorted list, or -1: binary search. */
function find(list: Uint32Array, doc: number): number {
  let lo = 0;
  let hi = list.length;
  const key = doc * 256;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo < list.length && Math.floor(list[lo]! / 256) === doc ? lo : -1;
}

/** A group's score in one doc (0 when the doc holds none of its terms). */
function tfScore(g: Group, doc: number): number {
  let score = 0;
  g.lists.forEach((list, li) => {
    const i = find(list, doc);
    if (i >= 0) score += weightOf(list[i]!) * g.weights[li]!;
  });
  return score;
}

function grow(a: Uint32Array<ArrayBuffer>, need: number): Uint32Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const b = new Uint32Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}
