import { dirname } from 'node:path';
import type { DurableFile, DurableFs } from '../fs/durable-fs.js';
import { DIR_MODE, FILE_MODE } from './layout.js';
import { decodeSealedLine, encodeSealedLine, scanLines, type ByteRange } from './record-codec.js';
import { openLineFor, sealLineFor } from './at-rest/index.js';

/** How far back from the end an append looks for the last newline when the file ends torn. */
export const TORN_TAIL_WINDOW_BYTES = 64 * 1024;
/**
 * Bytes read from the end to check the usual case, a log that ends with a whole line that
 * decodes: then nothing is cut and no other line is decoded (events.jsonl grows with every
 * handoff; decoding its last 64 KiB was ~1–2 ms of each `baton handoff`, issue 20).
 */
export const LAST_LINE_PROBE_BYTES = 4 * 1024;

const NEWLINE = 0x0a;

export interface LineLogOptions {
  fs: DurableFs;
  /** Seal each line with a `crc` (record-codec's sealed lines). Off for files other tools read as plain JSON lines. */
  seal?: boolean;
}

export interface LineLogRead {
  values: Record<string, unknown>[];
  /** Damaged ranges followed by valid lines: skipped, never cut. */
  damage: ByteRange[];
  /** An incomplete or damaged end with nothing valid after it: skipped on read, cut before the next append. */
  tail: ByteRange | undefined;
}

/**
 * An append-only JSON-lines log of the store other than messages.jsonl (approvals.jsonl,
 * events.jsonl, handoffs.jsonl): each append is one write and one fsync, and a damaged end (a torn
 * last line left by a killed writer) is cut before the next line is written, so a new record is
 * never glued to a fragment and lost. Only bytes that do not decode as a JSON object (or fail their
 * checksum) are cut, and only when nothing valid follows them; damage in the middle is never cut.
 */
export class LineLog {
  private dirSynced = false;

  constructor(
    readonly path: string,
    private readonly options: LineLogOptions,
  ) {}

  /** Resolves once every line is fsynced (and, the first time, the directory entry of the file). */
  async append(values: readonly Record<string, unknown>[]): Promise<void> {
    const { fs } = this.options;
    const bytes = Buffer.concat(values.map((v) => this.encode(v)));
    if (!this.dirSynced) await fs.mkdir(dirname(this.path), DIR_MODE);
    const file = await fs.open(this.path, 'a+', FILE_MODE);
    try {
      await cutDamagedTail(file, this.decode);
      await file.write(bytes);
      await file.sync();
    } finally {
      await file.close();
    }
    if (!this.dirSynced) {
      // The first append may have created the file: make its directory entry durable too.
      await fs.fsyncDir(dirname(this.path));
      this.dirSynced = true;
    }
  }

  /** One value as its line on disk: sealed with a crc, then (encrypted store) sealed with the data key. */
  private encode(value: Record<string, unknown>): Buffer {
    const line = this.options.seal ? encodeSealedLine(value) : Buffer.from(`${JSON.stringify(value)}\n`, 'utf8');
    return Buffer.concat([sealLineFor(this.options.fs, this.path, line.subarray(0, line.length - 1)), Buffer.from('\n')]);
  }

  /** A line on disk → its value, or undefined when it is damaged (or fails authentication). */
  private readonly decode = (line: Buffer): Record<string, unknown> | undefined => {
    const plain = openLineFor(this.options.fs, this.path, line);
    return plain && decodeSealedLine(plain);
  };

  /** Every decodable line, in order; undefined when the file does not exist. */
  async read(): Promise<LineLogRead | undefined> {
    let bytes: Buffer;
    try {
      bytes = await this.options.fs.readFile(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    this.dirSynced = true;
    const scan = scanLines(bytes, 0, this.decode);
    return { values: scan.records.map((r) => r.record), damage: scan.midDamage, tail: scan.tail };
  }
}

/**
 * Cuts a damaged end of the log (bytes after the last line that decodes, with nothing valid after
 * them: a torn append, or garbage a power loss left in an extended file) and makes the cut durable.
 * Reads back from the end in growing windows, so the cost does not grow with the log.
 */
async function cutDamagedTail(file: DurableFile, decode: (line: Buffer) => Record<string, unknown> | undefined): Promise<void> {
  const size = (await file.stat()).size;
  if (size === 0) return;
  if (await endsWithWholeLine(file, size, decode)) return;
  let window = TORN_TAIL_WINDOW_BYTES;
  for (;;) {
    const start = Math.max(0, size - window);
    const buf = await file.read(size - start, start);
    // Unless the window starts the file, its first line may be partial: start after its newline.
    const first = start === 0 ? 0 : buf.indexOf(NEWLINE) + 1;
    const scan = first === 0 && start > 0 ? undefined : scanLines(buf.subarray(first), start + first, decode);
    if (scan && (scan.records.length > 0 || start === 0)) {
      if (scan.tail) {
        await file.truncate(scan.tail.start);
        await file.sync();
      }
      return;
    }
    window *= 2;
  }
}

/**
 * True when the file's last line is whole (ends with a newline) and decodes: nothing after the
 * last valid line, so cutDamagedTail's scan would cut nothing. False when that cannot be told from
 * the last LAST_LINE_PROBE_BYTES (a longer last line) or the end is damaged: the scan decides.
 */
async function endsWithWholeLine(file: DurableFile, size: number, decode: (line: Buffer) => Record<string, unknown> | undefined): Promise<boolean> {
  const start = Math.max(0, size - LAST_LINE_PROBE_BYTES);
  const buf = await file.read(size - start, start);
  if (buf.length < 2 || buf.length !== size - start || buf[buf.length - 1] !== NEWLINE) return false;
  const previous = buf.lastIndexOf(NEWLINE, buf.length - 2);
  if (previous === -1 && start > 0) return false;
  return decode(buf.subarray(previous + 1, buf.length - 1)) !== undefined;
}
