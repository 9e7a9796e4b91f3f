import { randomUUID } from 'node:crypto';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import type { JsonSink } from '../importers/list-json.js';
import { MAX_FRAME_BYTES } from '../../shared/wire.js';

/**
 * Bytes of a listing file per part. A part travels as a JSON string: the listing is JSON text, so
 * it holds no raw control characters, and only `"` and `\` grow when escaped (to two bytes), so
 * a part at most doubles and stays under MAX_FRAME_BYTES with room for the envelope.
 */
export const LISTING_PART_BYTES = Math.floor((MAX_FRAME_BYTES - 8 * 1024) / 2);

/**
 * A rendered `baton list --json` document kept as a file, not in memory: at 100,000 candidates
 * it is 29 MB, and the host kept it as a string, joined again to write it, in up to four renders.
 * The CLI copies the file to stdout; a CLI that cannot open it asks for parts, which are read
 * back from the open handle (still readable when the file was removed since).
 */
export interface ListingFile {
  path: string;
  /** Byte offset where each part starts; a part ends where the next starts (the last at `bytes`). */
  starts: number[];
  bytes: number;
  /** Part `k`'s text; null once closed. */
  part(k: number): Promise<string | null>;
  close(): Promise<void>;
}

/** Bytes gathered before one write to the listing file. */
export const LISTING_WRITE_BYTES = 1024 * 1024;

/** Writes every byte of `chunks` at `position` (writev may write less than asked). */
async function writeAll(handle: FileHandle, chunks: Buffer[], position: number): Promise<void> {
  let buf = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  while (buf.length > 0) {
    const { bytesWritten } = await handle.write(buf, 0, buf.length, position);
    buf = buf.subarray(bytesWritten);
    position += bytesWritten;
  }
}

/** A UTF-8 continuation byte (10xxxxxx): never the first byte of a part. */
function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/**
 * Writes a document to `path` through `render` (which writes it to the sink it is given), chunk
 * by chunk, noting where parts start (never inside a UTF-8 sequence), then renames it into place
 * (a reader sees a whole document or none). A cache, not a record: no fsync. Throws when the file
 * cannot be written; nothing is left behind then.
 */
export async function writeListingFile(path: string, render: (sink: JsonSink) => Promise<void>, partBytes = LISTING_PART_BYTES): Promise<ListingFile> {
  const temp = `${path}.${randomUUID()}.tmp`;
  const handle = await open(temp, 'w+', 0o600);
  const starts = [0];
  let bytes = 0;
  // Chunks gathered into one writev of LISTING_WRITE_BYTES: a positional write per 64 KB chunk
  // (450 at 100,000 candidates) cost more thread-pool hops than the render itself.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let written = 0;
  let writing: Promise<unknown> = Promise.resolve();
  let failed: unknown = null;
  const flush = (): void => {
    if (pending.length === 0) return;
    const batch = pending;
    const position = written;
    written += pendingBytes;
    pending = [];
    pendingBytes = 0;
    writing = writing.then(() => writeAll(handle, batch, position)).catch((error: unknown) => (failed ??= error));
  };
  const sink: JsonSink = {
    write(chunk: Buffer) {
      // Cut points inside this chunk: the first byte of each part that begins in it.
      let next = starts[starts.length - 1]! + partBytes;
      while (next < bytes + chunk.length) {
        let at = next - bytes;
        while (at > 0 && isContinuation(chunk[at]!)) at -= 1;
        // The chunk's first byte starts a character (writeListJson writes whole characters and rows).
        const cut = bytes + at;
        if (cut <= starts[starts.length - 1]!) break; // cannot happen with parts longer than a character
        starts.push(cut);
        next = cut + partBytes;
      }
      bytes += chunk.length;
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes < LISTING_WRITE_BYTES) return true;
      flush();
      return false; // one batch in flight while the next gathers
    },
    once(_event, listener) {
      void writing.then(listener);
      return sink;
    },
  };
  try {
    await render(sink);
    flush();
    await writing;
    if (failed) throw failed;
    await rename(temp, path);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
  let open_ = true;
  return {
    path,
    starts,
    bytes,
    async part(k) {
      if (!open_ || k < 0 || k >= starts.length) return null;
      const from = starts[k]!;
      const to = k + 1 < starts.length ? starts[k + 1]! : bytes;
      const buf = Buffer.allocUnsafe(to - from);
      let got = 0;
      while (got < buf.length) {
        const { bytesRead } = await handle.read(buf, got, buf.length - got, from + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return buf.toString('utf8', 0, got);
    },
    async close() {
      if (!open_) return;
      open_ = false;
      await handle.close();
    },
  };
}

