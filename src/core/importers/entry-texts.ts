/**
 * Where a scan's fresh index entries keep their two texts (the list row and the extras, both
 * JSON): as UTF-8 bytes in shared chunks outside V8's heap, not as two strings per entry. A cold
 * scan holds every entry to its end, and at 100,000 sessions their texts were ~45 MB of the main
 * thread's ~118 MB live heap at its peak, which V8's heap growth then doubled up on (the old space
 * is let grow 25 % past the live heap before it is collected: bench/README.md, issue 15,
 * thirteenth sitting). As bytes, they cost their length and nothing else, and the index's encode
 * and the printed listing copy them as they are (no encode to UTF-8 again).
 *
 * A chunk stays alive as long as one entry placed in it does. A full scan's entries share chunks
 * of SCAN_TEXT_CHUNK_BYTES (they live and die together); a few files rescanned one by one get an
 * exact-size chunk each (`chunkBytes` 0), so a long-lived host that replaces their entries never
 * keeps a mostly dead chunk for one live entry.
 */
export const SCAN_TEXT_CHUNK_BYTES = 64 * 1024;

/** A span of bytes placed by EntryTexts: its chunk and where it starts. */
export interface PlacedTexts {
  chunk: Buffer;
  start: number;
  /** Where the first text ends and the second begins. */
  mid: number;
  end: number;
}

const NO_BYTES = Buffer.alloc(0);

export class EntryTexts {
  #chunk: Buffer = NO_BYTES;
  #used = 0;
  /** The short texts many entries repeat (their directory), one string each: a full scan's only. */
  readonly #shared: Map<string, string> | null;

  /** `chunkBytes`: the size of a chunk (a text pair larger than that gets its own); 0 for one exact chunk per pair. */
  constructor(private readonly chunkBytes: number = 0) {
    this.#shared = chunkBytes > 0 ? new Map() : null;
  }

  /**
   * One string for every equal `text` this store is given (a full scan's entries' directories: a
   * few hundred folders for 100,000 sessions, where each entry held its own copy, ~4 MB of the
   * cold listing's live heap at its peak). Without a chunk size, `text` as it is.
   */
  shared(text: string): string {
    if (this.#shared === null) return text;
    const kept = this.#shared.get(text);
    if (kept !== undefined) return kept;
    this.#shared.set(text, text);
    return text;
  }

  /**
   * Copies `first` then `second` (as UTF-8) into the current chunk, a new one when they do not
   * fit. JSON.stringify's texts hold no lone surrogate (it escapes them), so the bytes decode back
   * to the same texts.
   */
  place(first: string, second: string): PlacedTexts {
    const firstBytes = Buffer.byteLength(first);
    const need = firstBytes + Buffer.byteLength(second);
    if (this.#used + need > this.#chunk.length) {
      // allocUnsafeSlow: a chunk of its own, not a slice of Node's shared 8 KB pool (a kept slice keeps the whole pool).
      this.#chunk = Buffer.allocUnsafeSlow(Math.max(this.chunkBytes, need));
      this.#used = 0;
    }
    const chunk = this.#chunk;
    const start = this.#used;
    chunk.write(first, start, firstBytes, 'utf8');
    chunk.write(second, start + firstBytes, need - firstBytes, 'utf8');
    this.#used += need;
    return { chunk, start, mid: start + firstBytes, end: start + need };
  }
}
