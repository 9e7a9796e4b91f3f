import { randomUUID } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
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
  let writing: Promise<unknown> = Promise.resolve();
  let failed: unknown = null;
  const sink: JsonSink = {
    write(chunk: Buffer) {
      // Cut points inside this chunk: the first byte of each part that begins in it.
      let next = starts[starts.length - 1]! + partBytes;
      while (next < bytes + chunk.length) {
        let at = next - bytes;
        while (at > 0 && isContinuation(chunk[at]!)) at -= 1;
        // A cut backed off to the chunk's start belongs to the previous chunk's end: cut there.
        const cut = bytes + at;
        if (cut <= starts[starts.length - 1]!) break; // cannot happen with parts longer than a character
        starts.push(cut);
        next = cut + partBytes;
      }
      const position = bytes;
      bytes += chunk.length;
      writing = writing.then(() => handle.write(chunk, 0, chunk.length, position)).catch((error: unknown) => (failed ??= error));
      return false; // one chunk in flight at a time
    },
    once(_event, listener) {
      void writing.then(listener);
      return sink;
    },
  };
  try {
    await render(sink);
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

