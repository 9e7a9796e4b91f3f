/** Slots the table starts with; it doubles when LOAD_MAX of them are taken. */
const INITIAL_SLOTS = 1 << 12;
const LOAD_MAX = 0.7;
/** Most ids a reservation makes room for at once (8 MiB of table); past it the table doubles as it fills. */
const RESERVE_MAX = 1 << 18;
const NO_CANDIDATES: ReadonlyArray<{ start: number; length: number }> = Object.freeze([]);

/**
 * The ids a whole-log pass has accepted, in about 24 bytes a record instead of a Set of strings
 * (~70 bytes each: 240 MB for a 1 GB log). Each slot keeps a 32-bit hash of the id and where its
 * line is; a hash seen before is only a candidate, confirmed by reading that earlier line again
 * (rare: a real duplicate, or one hash collision per few thousand ids at a million).
 */
export class LineIdSet {
  private hashes = new Uint32Array(INITIAL_SLOTS);
  /** Line start + 1 (0: empty slot). */
  private starts = new Float64Array(INITIAL_SLOTS);
  private lengths = new Uint32Array(INITIAL_SLOTS);
  size = 0;

  /** FNV-1a over the id's UTF-16 code units: a loop in JS costs less than a native CRC call per record. */
  static hashOf(id: string): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
    return h >>> 0;
  }

  /**
   * hashOf of the id whose UTF-8 bytes are bytes[start, end), taken from the bytes, or -1 when one
   * is not ASCII (then its UTF-16 code units are not its bytes: hash the string). Equal to hashOf
   * for every ASCII id, so ids hashed either way share one table.
   */
  static hashOfAscii(bytes: Uint8Array, start: number, end: number): number {
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) {
      const c = bytes[i]!;
      if (c >= 0x80) return -1;
      h = Math.imul(h ^ c, 0x01000193);
    }
    return h >>> 0;
  }

  /** The lines (start, length) of earlier ids with this hash. */
  candidates(hash: number): ReadonlyArray<{ start: number; length: number }> {
    // Built only on a match: an array per record was a tenth of `show --all`'s garbage.
    let out: Array<{ start: number; length: number }> | undefined;
    const mask = this.hashes.length - 1;
    for (let i = hash & mask; this.starts[i] !== 0; i = (i + 1) & mask) {
      if (this.hashes[i] === hash) (out ??= []).push({ start: this.starts[i]! - 1, length: this.lengths[i]! });
    }
    return out ?? NO_CANDIDATES;
  }

  add(hash: number, start: number, length: number): void {
    if (this.size + 1 > this.hashes.length * LOAD_MAX) this.grow();
    this.place(hash, start + 1, length);
    this.size++;
  }

  private place(hash: number, startPlusOne: number, length: number): void {
    const mask = this.hashes.length - 1;
    let i = hash & mask;
    while (this.starts[i] !== 0) i = (i + 1) & mask;
    this.hashes[i] = hash;
    this.starts[i] = startPlusOne;
    this.lengths[i] = length;
  }

  /**
   * Room for `count` ids without growing (capped at RESERVE_MAX): a pass that can guess its count
   * takes the table at its final size at once; doubling from INITIAL_SLOTS to a 100,000-record
   * log's size rehashed every id six times (a twentieth of `show --all`'s CPU).
   */
  reserve(count: number): void {
    let slots = this.hashes.length;
    while (Math.min(count, RESERVE_MAX) > slots * LOAD_MAX) slots *= 2;
    if (slots > this.hashes.length) this.resize(slots);
  }

  private grow(): void {
    this.resize(this.hashes.length * 2);
  }

  private resize(slots: number): void {
    const { hashes, starts, lengths } = this;
    this.hashes = new Uint32Array(slots);
    this.starts = new Float64Array(slots);
    this.lengths = new Uint32Array(slots);
    for (let i = 0; i < hashes.length; i++) if (starts[i] !== 0) this.place(hashes[i]!, starts[i]!, lengths[i]!);
  }
}
