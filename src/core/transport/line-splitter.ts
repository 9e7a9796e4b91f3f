/**
 * Splits a byte stream into newline-terminated frames with a hard size limit. The limit is
 * checked on the bytes still waiting for their newline, so a peer cannot make us buffer more than
 * `maxBytes` no matter how it slices its writes.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;

  constructor(public maxBytes: number) {}

  /** Bytes of the frame still arriving (0 when the stream sits between frames). */
  get pending(): number {
    return this.size;
  }

  /**
   * Feeds `chunk`, calling `onLine` for each complete line (without '\n') in order. `onLine` may
   * change `maxBytes` (authentication raises it) and returns false to stop reading. Returns
   * 'overflow' once a frame outgrows the limit, 'stopped' if `onLine` stopped, else 'ok'.
   */
  push(chunk: Buffer, onLine: (line: Buffer) => boolean): 'ok' | 'overflow' | 'stopped' {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      if (newline === -1) break;
      const piece = chunk.subarray(start, newline);
      if (this.size + piece.length > this.maxBytes) return 'overflow';
      const line = this.size === 0 ? piece : Buffer.concat([...this.parts, piece]);
      this.parts = [];
      this.size = 0;
      start = newline + 1;
      if (!onLine(line)) return 'stopped';
    }
    const rest = chunk.subarray(start);
    if (rest.length > 0) {
      if (this.size + rest.length > this.maxBytes) return 'overflow';
      this.parts.push(rest);
      this.size += rest.length;
    }
    return 'ok';
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Strict UTF-8 decode: malformed bytes are a bad frame, not replacement characters. */
export function decodeLine(line: Buffer): string | null {
  try {
    return decoder.decode(line);
  } catch {
    return null;
  }
}
