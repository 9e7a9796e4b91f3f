/**
 * An inverted index kept in typed arrays: per term, one growable Uint32Array of postings, each
 * `docId * 256 + count`, and one growable Uint8Array of positions: for each posting in order,
 * its `count` positions inside the doc (0–255, ascending, one byte each). Doc ids only grow, so
 * every list stays sorted without sorting. minisearch kept a Map per posting (267 MB of heap for
 * 1 M messages, bench/search); this costs 4 bytes per posting, 1 byte per position, plus one
 * small array per term. The positions let a query of several words intersect inside a doc
 * without reading it (message-index.ts: a position is a message's offset in its chunk).
 *
 * A removed doc is a tombstone (its postings stay until `compact`, which renumbers the live docs
 * in order, so lists stay sorted). Callers compact when `deadShare` grows.
 */

/** Doc ids must fit in 24 bits next to the 8-bit position count. */
export const MAX_DOCS = 2 ** 24;
/** Positions per doc and term: they are counted in a posting's low byte and stored one byte each. */
export const POSITIONS_MAX = 255;
const FIRST_CAPACITY = 4;
/** Terms loaded between two turns of the event loop by deserializeInSlices (a few ms of work). */
export const DESERIALIZE_SLICE_TERMS = 5_000;

/** The layout `serialize` gives and `deserialize` reads. */
export interface SerializedPostings {
  terms: string[];
  lengths: Uint32Array;
  postings: Uint32Array;
  /** Per term: how many position bytes it holds (the sum of its postings' counts). */
  positionLengths: Uint32Array;
  positions: Uint8Array;
  docPostingCount: Uint32Array;
}

export class CompactPostings {
  private readonly termIds = new Map<string, number>();
  private readonly termList: string[] = [];
  private lists: Uint32Array[] = [];
  private lengths = new Uint32Array(1024);
  private positionLists: Uint8Array[] = [];
  private positionLengths = new Uint32Array(1024);
  /** Per doc: alive (1) or removed (0), and how many postings it holds (for `deadShare`). */
  private alive = new Uint8Array(1024);
  private docPostingCount = new Uint32Array(1024);
  private docs = 0;
  private livePostings = 0;
  private deadPostings = 0;
  /** Terms sorted, for prefix lookups; rebuilt lazily after new terms arrive. */
  private sorted: string[] = [];
  private unsorted: string[] = [];

  get docCount(): number {
    return this.docs;
  }

  /** The share of postings that belong to removed docs. */
  get deadShare(): number {
    const all = this.livePostings + this.deadPostings;
    return all === 0 ? 0 : this.deadPostings / all;
  }

  isAlive(doc: number): boolean {
    return this.alive[doc] === 1;
  }

  /**
   * Adds a doc: term → its positions in the doc (ascending, distinct, each 0–255, at most
   * POSITIONS_MAX); returns its id.
   */
  add(terms: ReadonlyMap<string, readonly number[]>): number {
    const doc = this.docs;
    if (doc >= MAX_DOCS) throw new Error(`search index: more than ${MAX_DOCS} chunks; compact or rebuild it`);
    for (const [term, at] of terms) {
      if (at.length === 0 || at.length > POSITIONS_MAX) throw new Error(`search index: term "${term}" has ${at.length} positions in a doc (1–${POSITIONS_MAX})`);
      for (let i = 0; i < at.length; i++) if (!(at[i]! >= 0 && at[i]! <= 255 && (i === 0 || at[i]! > at[i - 1]!))) throw new Error(`search index: term "${term}" positions must be ascending bytes, got ${at.join(',')}`);
    }
    this.docs++;
    this.alive = grow8(this.alive, this.docs);
    this.docPostingCount = grow32(this.docPostingCount, this.docs);
    this.alive[doc] = 1;
    this.docPostingCount[doc] = terms.size;
    this.livePostings += terms.size;
    for (const [term, at] of terms) this.push(this.termId(term), doc * 256 + at.length, at);
    return doc;
  }

  remove(doc: number): void {
    if (this.alive[doc] !== 1) return;
    this.alive[doc] = 0;
    this.livePostings -= this.docPostingCount[doc]!;
    this.deadPostings += this.docPostingCount[doc]!;
  }

  /**
   * Drops removed docs' postings and renumbers the live docs 0..n-1 in their order; returns the
   * old → new id map (-1 for removed docs) so owners can renumber their own tables.
   */
  compact(): Int32Array {
    const map = new Int32Array(this.docs).fill(-1);
    let next = 0;
    for (let d = 0; d < this.docs; d++) if (this.alive[d] === 1) map[d] = next++;
    for (let t = 0; t < this.lists.length; t++) {
      const list = this.lists[t]!;
      const at = this.positionLists[t]!;
      let w = 0;
      // Positions move with their postings: read at `pr`, written at `pw`.
      let pr = 0;
      let pw = 0;
      for (let r = 0; r < this.lengths[t]!; r++) {
        const p = list[r]!;
        const count = p % 256;
        const to = map[Math.floor(p / 256)]!;
        if (to >= 0) {
          list[w++] = to * 256 + count;
          if (pw !== pr) at.copyWithin(pw, pr, pr + count);
          pw += count;
        }
        pr += count;
      }
      this.lengths[t] = w;
      this.positionLengths[t] = pw;
      if (w < list.length / 4) this.lists[t] = list.slice(0, Math.max(FIRST_CAPACITY, w));
      if (pw < at.length / 4) this.positionLists[t] = at.slice(0, Math.max(FIRST_CAPACITY, pw));
    }
    const counts = new Uint32Array(Math.max(1024, next));
    for (let d = 0; d < this.docs; d++) if (map[d]! >= 0) counts[map[d]!] = this.docPostingCount[d]!;
    this.docPostingCount = counts;
    this.alive = new Uint8Array(Math.max(1024, next)).fill(1, 0, next);
    this.docs = next;
    this.deadPostings = 0;
    return map;
  }

  /** The postings of `term` (live and dead; check `isAlive`), or an empty array. */
  postings(term: string): Uint32Array {
    const id = this.termIds.get(term);
    return id === undefined ? EMPTY : this.lists[id]!.subarray(0, this.lengths[id]!);
  }

  /**
   * The positions of `term`, posting after posting (posting i's start is the sum of the counts of
   * the postings before it; see `positionStarts`).
   */
  positions(term: string): Uint8Array {
    const id = this.termIds.get(term);
    return id === undefined ? EMPTY8 : this.positionLists[id]!.subarray(0, this.positionLengths[id]!);
  }

  /** Terms starting with `prefix` (the term itself first when present), at most `max`. */
  termsWithPrefix(prefix: string, max: number): string[] {
    if (this.unsorted.length > 0) this.mergeSorted();
    const found: string[] = [];
    if (this.termIds.has(prefix)) found.push(prefix);
    for (let i = lowerBound(this.sorted, prefix); i < this.sorted.length && found.length < max; i++) {
      const term = this.sorted[i]!;
      if (!term.startsWith(prefix)) break;
      if (term !== prefix) found.push(term);
    }
    return found;
  }

  /** Bytes: a header-free layout the owner frames (terms, then lengths, then postings). */
  serialize(): SerializedPostings {
    // Compaction renumbers docs, which the owner must follow: it compacts first, not this.
    if (this.deadPostings > 0) throw new Error('search index: compact before serializing');
    const total = this.lengths.subarray(0, this.lists.length).reduce((a, b) => a + b, 0);
    const postings = new Uint32Array(total);
    const positions = new Uint8Array(this.positionLengths.subarray(0, this.lists.length).reduce((a, b) => a + b, 0));
    let at = 0;
    let pat = 0;
    for (let t = 0; t < this.lists.length; t++) {
      postings.set(this.lists[t]!.subarray(0, this.lengths[t]!), at);
      at += this.lengths[t]!;
      positions.set(this.positionLists[t]!.subarray(0, this.positionLengths[t]!), pat);
      pat += this.positionLengths[t]!;
    }
    return { terms: this.termList, lengths: this.lengths.slice(0, this.lists.length), postings, positionLengths: this.positionLengths.slice(0, this.lists.length), positions, docPostingCount: this.docPostingCount.slice(0, this.docs) };
  }

  static deserialize(data: SerializedPostings): CompactPostings {
    const load = CompactPostings.loader(data);
    load.terms(data.terms.length);
    return load.finish();
  }

  /**
   * deserialize, handing the event loop back every `slice` terms: a host loading the index of a
   * 1 GB session (millions of terms, seconds of work) keeps answering the UI meanwhile.
   * Undefined when `stop()` turns true between slices.
   */
  static async deserializeInSlices(data: SerializedPostings, stop: () => boolean = () => false, slice = DESERIALIZE_SLICE_TERMS): Promise<CompactPostings | undefined> {
    const load = CompactPostings.loader(data);
    while (!load.terms(slice)) {
      await new Promise((resolve) => setImmediate(resolve));
      // A host that is stopping does not finish loading first.
      if (stop()) return undefined;
    }
    return load.finish();
  }

  /** The steps of deserialize: `terms(n)` loads the next n terms (true once all are), `finish` checks the totals. */
  private static loader(data: SerializedPostings): { terms: (n: number) => boolean; finish: () => CompactPostings } {
    const p = new CompactPostings();
    if (data.terms.length !== data.lengths.length || data.terms.length !== data.positionLengths.length) throw new Error('search index: term and length tables differ');
    let at = 0;
    let pat = 0;
    let t = 0;
    p.lengths = new Uint32Array(Math.max(1024, data.terms.length));
    p.positionLengths = new Uint32Array(Math.max(1024, data.terms.length));
    const terms = (count: number): boolean => {
      for (const end = Math.min(data.terms.length, t + count); t < end; t++) {
        const n = data.lengths[t]!;
        const pn = data.positionLengths[t]!;
        if (at + n > data.postings.length) throw new Error('search index: postings shorter than the lengths say');
        if (pat + pn > data.positions.length) throw new Error('search index: positions shorter than the lengths say');
        // Views of the loaded tables, not copies (a million terms is a million copies): a list
        // is only written within its own length, and grows into a new array (push).
        const list = data.postings.subarray(at, at + n);
        let counted = 0;
        for (let i = 0; i < n; i++) counted += list[i]! % 256;
        if (counted !== pn) throw new Error(`search index: term "${data.terms[t]}" counts ${counted} positions but holds ${pn}`);
        p.termIds.set(data.terms[t]!, t);
        p.termList.push(data.terms[t]!);
        p.lists.push(list);
        p.lengths[t] = n;
        p.positionLists.push(data.positions.subarray(pat, pat + pn));
        p.positionLengths[t] = pn;
        at += n;
        pat += pn;
      }
      return t === data.terms.length;
    };
    const finish = (): CompactPostings => {
      if (at !== data.postings.length || pat !== data.positions.length) throw new Error('search index: postings longer than the lengths say');
      p.docs = data.docPostingCount.length;
      p.docPostingCount = grow32(data.docPostingCount.slice(), p.docs);
      p.alive = new Uint8Array(Math.max(1024, p.docs)).fill(1, 0, p.docs);
      p.livePostings = at;
      p.unsorted = [...data.terms];
      return p;
    };
    return { terms, finish };
  }

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.lists.length;
      this.termIds.set(term, id);
      this.termList.push(term);
      this.lists.push(new Uint32Array(FIRST_CAPACITY));
      this.lengths = grow32(this.lengths, this.lists.length);
      this.positionLists.push(new Uint8Array(FIRST_CAPACITY));
      this.positionLengths = grow32(this.positionLengths, this.lists.length);
      this.unsorted.push(term);
    }
    return id;
  }

  private push(term: number, posting: number, at: readonly number[]): void {
    let list = this.lists[term]!;
    const n = this.lengths[term]!;
    if (n === list.length) {
      // A loaded term with no postings left (its docs all removed before the save) has a
      // zero-length list: doubling it gave zero, and the write past its end was silently lost.
      const bigger = new Uint32Array(Math.max(FIRST_CAPACITY, list.length * 2));
      bigger.set(list);
      this.lists[term] = list = bigger;
    }
    list[n] = posting;
    this.lengths[term] = n + 1;
    let positions = this.positionLists[term]!;
    const pn = this.positionLengths[term]!;
    if (pn + at.length > positions.length) {
      // Grows by half, not double: positions are the index's largest table (bench/search).
      const bigger = new Uint8Array(Math.max(pn + at.length, Math.ceil(positions.length * 1.5)));
      bigger.set(positions.subarray(0, pn));
      this.positionLists[term] = positions = bigger;
    }
    positions.set(at, pn);
    this.positionLengths[term] = pn + at.length;
  }

  /** New terms are sorted and merged into the sorted list in one linear pass. */
  private mergeSorted(): void {
    const add = this.unsorted.sort();
    this.unsorted = [];
    const out: string[] = new Array(this.sorted.length + add.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < this.sorted.length || j < add.length) out[k++] = j >= add.length || (i < this.sorted.length && this.sorted[i]! < add[j]!) ? this.sorted[i++]! : add[j++]!;
    this.sorted = out;
  }
}

const EMPTY = new Uint32Array(0);
const EMPTY8 = new Uint8Array(0);

/** Where each posting's positions start in its term's positions (the counts summed before it). */
export function positionStarts(postings: Uint32Array): Uint32Array {
  const starts = new Uint32Array(postings.length);
  for (let i = 0, at = 0; i < postings.length; i++) {
    starts[i] = at;
    at += postings[i]! % 256;
  }
  return starts;
}

function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function grow32(a: Uint32Array<ArrayBuffer>, need: number): Uint32Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const b = new Uint32Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

function grow8(a: Uint8Array<ArrayBuffer>, need: number): Uint8Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const b = new Uint8Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}
