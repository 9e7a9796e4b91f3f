import { dirname } from 'node:path';
import type { DurableFile, DurableFs } from '../fs/durable-fs.js';
import { DIR_MODE, FILE_MODE } from './layout.js';
import { decodeSealedLine, encodeSealedLine, scanLines, type ByteRange } from './record-codec.js';

/** How far back from the end an append looks for the last newline when the file ends torn. */
export const TORN_TAIL_WINDOW_BYTES = 64 * 1024;

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
 * events.jsonl, handoffs.jsonl): each append is one write and one fsync, and a torn last line left
 * by a killed writer is cut back to the last newline before the next line is written, so a new
 * record is never glued to a fragment and lost. Only bytes after the last newline are cut: a
 * complete line that does not decode may be a newer writer's record, and is left for readers to skip.
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
    const bytes = Buffer.concat(values.map((v) => (this.options.seal ? encodeSealedLine(v) : Buffer.from(`${JSON.stringify(v)}\n`, 'utf8'))));
    if (!this.dirSynced) await fs.mkdir(dirname(this.path), DIR_MODE);
    const file = await fs.open(this.path, 'a+', FILE_MODE);
    try {
      await cutTornTail(file);
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
    const scan = scanLines(bytes, 0, decodeSealedLine);
    return { values: scan.records.map((r) => r.record), damage: scan.midDamage, tail: scan.tail };
  }
}

/** Cuts the bytes after the last newline (a torn append) and makes the cut durable. */
async function cutTornTail(file: DurableFile): Promise<void> {
  const size = (await file.stat()).size;
  if (size === 0) return;
  const last = await file.read(1, size - 1);
  if (last[0] === NEWLINE) return;
  let window = TORN_TAIL_WINDOW_BYTES;
  for (;;) {
    const start = Math.max(0, size - window);
    const buf = await file.read(size - start, start);
    const nl = buf.lastIndexOf(NEWLINE);
    if (nl !== -1 || start === 0) {
      await file.truncate(nl === -1 ? 0 : start + nl + 1);
      await file.sync();
      return;
    }
    window *= 2;
  }
}
