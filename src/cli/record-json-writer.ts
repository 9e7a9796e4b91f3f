import { spliceRecordJsonWithin } from '../core/store/line-crc.js';

const COMMA = 0x2c;

/**
 * The output of `show --all --json`, built from the log's own bytes (issue 20: the command used to
 * spend most of its time on a buffer per record). The reader announces each chunk it reads
 * (`chunk`); a record whose line lies in that chunk has its JSON spliced into the chunk itself, in
 * place (the JSON is one byte shorter than its stored line, so it always fits, comma included, and
 * never reaches a line not yet handed over), and whole runs of records go out as one write.
 * The chunk is the reader's to give: log-stream.ts reads each chunk into a buffer of its own and
 * never reads it again (the sixth sitting dropped the copy of each 1 MiB chunk made here: a memcpy
 * and 256 fresh pages per MiB). Anything else — text, a line joined across chunks, a line opened
 * from a store encrypted at rest, a record serialised again — is copied into a spill buffer.
 * Output leaves in order, about `capacity` bytes at a time (a run spliced in the chunk included), and
 * `due()` lets a slow reader (a pipe) hold the producer back. A buffer handed to `write` is never
 * touched again: later records are spliced only past it.
 */
export class RecordJsonWriter {
  /** The reader's current chunk, rewritten in place as its records are printed. */
  private source: Buffer | undefined;
  /** Output waiting in `source`: bytes [regionStart, at). */
  private regionStart = 0;
  private at = 0;
  /** Output waiting in `spill`: bytes [0, spillUsed). Only one of the two is open at a time. */
  private spill: Buffer;
  private spillUsed = 0;
  private ready: Buffer[] = [];
  private readyBytes = 0;

  constructor(
    private readonly capacity: number,
    private readonly write: (chunk: Buffer) => void | Promise<void>,
  ) {
    this.spill = Buffer.allocUnsafe(capacity);
  }

  /** The reader has read `source`: lines that are slices of it can be spliced in place. */
  chunk(source: Buffer): void {
    this.closeRegion();
    this.source = source;
    this.regionStart = 0;
    this.at = 0;
  }

  /** The JSON of the record on `line`, a line whose byte-CRC was checked (line-crc.ts), preceded by a comma when asked. */
  recordLine(line: Buffer, comma: boolean): void {
    const start = this.offsetInChunk(line);
    if (start === -1) {
      // Not a slice of the chunk: copied into the spill buffer, then spliced there.
      this.closeRegion();
      this.room(line.length + 1);
      if (comma) this.spill[this.spillUsed++] = COMMA;
      line.copy(this.spill, this.spillUsed);
      this.spillUsed = spliceRecordJsonWithin(this.spill, this.spillUsed, line.length, this.spillUsed);
      return;
    }
    this.closeSpill();
    const source = this.source!;
    // Everything before `at` is output, everything from `start` on is still the stored line: at ≤ start.
    const to = comma ? this.at + 1 : this.at;
    const end = spliceRecordJsonWithin(source, start, line.length, to);
    if (comma) source[this.at] = COMMA;
    this.at = end;
  }

  bytes(bytes: Buffer): void {
    this.closeRegion();
    this.room(bytes.length);
    bytes.copy(this.spill, this.spillUsed);
    this.spillUsed += bytes.length;
  }

  text(value: string): void {
    this.bytes(Buffer.from(value, 'utf8'));
  }

  /** Writes what is ready; a promise when the writer asks to wait, undefined otherwise (the common case). */
  due(): Promise<void> | undefined {
    // A run spliced in the chunk counts too: output leaves every `capacity` bytes, not once a chunk,
    // so a reader at the other end of a pipe can take it while the next records are made.
    if (this.readyBytes + this.at - this.regionStart < this.capacity) return undefined;
    this.closeRegion();
    return this.writeReady();
  }

  /** Writes everything. */
  async end(): Promise<void> {
    this.closeRegion();
    this.closeSpill();
    await this.writeReady();
  }

  private offsetInChunk(line: Buffer): number {
    const source = this.source;
    if (source === undefined || line.buffer !== source.buffer) return -1;
    const start = line.byteOffset - source.byteOffset;
    return start >= 0 && start + line.length <= source.length ? start : -1;
  }

  /** At least `n` bytes free in the spill buffer (a bigger one for a line longer than `capacity`). */
  private room(n: number): void {
    if (this.spillUsed + n <= this.spill.length) return;
    this.closeSpill();
    if (n > this.spill.length) this.spill = Buffer.allocUnsafe(n);
  }

  private closeRegion(): void {
    if (this.at > this.regionStart) this.queue(this.source!.subarray(this.regionStart, this.at));
    this.regionStart = this.at;
  }

  private closeSpill(): void {
    if (this.spillUsed === 0) return;
    this.queue(this.spill.subarray(0, this.spillUsed));
    this.spill = Buffer.allocUnsafe(this.capacity);
    this.spillUsed = 0;
  }

  private queue(bytes: Buffer): void {
    this.ready.push(bytes);
    this.readyBytes += bytes.length;
  }

  private writeReady(): Promise<void> | undefined {
    const ready = this.ready;
    this.ready = [];
    this.readyBytes = 0;
    return writeInOrder(ready, 0, this.write);
  }
}

/** Each buffer from `i` on, waiting whenever `write` returns a promise. */
function writeInOrder(buffers: Buffer[], i: number, write: (chunk: Buffer) => void | Promise<void>): Promise<void> | undefined {
  for (; i < buffers.length; i++) {
    const pending = write(buffers[i]!);
    if (pending) return pending.then(() => writeInOrder(buffers, i + 1, write));
  }
  return undefined;
}
