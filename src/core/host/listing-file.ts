import { randomUUID } from 'node:crypto';
import { copyFile, open, rename, rm } from 'node:fs/promises';
import type { JsonSink } from '../importers/list-json.js';
import { MAX_FRAME_BYTES } from '../../shared/wire.js';
import type { DataKey } from '../store/at-rest/aead.js';
import { listingSealer, sealedListingReader } from '../store/at-rest/sealed-listing.js';
import { writeAllParts } from '../fs/write-all.js';

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

/**
 * Puts a copy of the sealed listing `temp` at `path` (made by the kernel, copy_file_range, not
 * through this process's memory) and unlinks `temp`, which the host keeps open: its parts are read
 * from a file no one else can change. A file changed at `path` is refused by the CLI, which then
 * asks for the parts; read from that same file, they would fail too.
 */
async function publishCopy(temp: string, path: string): Promise<void> {
  const published = `${temp}.published`;
  try {
    await copyFile(temp, published);
    await rename(published, path);
  } catch (error) {
    await rm(published, { force: true });
    throw error;
  }
  await rm(temp, { force: true });
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
 *
 * `sealWith` (an encrypted store's listing): the bytes are sealed in pieces as they are written
 * (sealed-listing.ts) and parts are read back through the pieces; the parts' offsets are the
 * document's. Sealed whole, the document was a string, its parts, its bytes and two sealed copies
 * in the host at once (~170 MB at 100,000 candidates, bench/README.md, issue 17).
 */
export async function writeListingFile(path: string, render: (sink: JsonSink) => Promise<void>, partBytes = LISTING_PART_BYTES, sealWith?: DataKey): Promise<ListingFile> {
  const temp = `${path}.${randomUUID()}.tmp`;
  const handle = await open(temp, 'w+', 0o600);
  const sealer = sealWith ? listingSealer(sealWith, path) : undefined;
  const starts = [0];
  let bytes = 0;
  // Chunks copied into one reused LISTING_WRITE_BYTES buffer per write: a positional write per
  // 64 KB chunk (450 at 100,000 candidates) cost more thread-pool hops than the render itself,
  // and chunks kept until written were 27 MB of garbage per render.
  let batch = Buffer.allocUnsafe(LISTING_WRITE_BYTES);
  let spare = Buffer.allocUnsafe(LISTING_WRITE_BYTES);
  let batchBytes = 0;
  let written = 0;
  let writing: Promise<unknown> = Promise.resolve();
  let failed: unknown = null;
  const enqueue = (plain: Buffer): void => {
    // Sealed now (the sealer copies what it keeps): the caller's buffer is free again at once.
    const out = sealer ? sealer.add(plain) : [plain];
    const position = written;
    for (const bytes of out) written += bytes.length;
    // The batch's pieces in one call, their parts as they are (writev, not concatenated).
    if (out.length > 0) writing = writing.then(() => writeAllParts(handle, out, position)).catch((error: unknown) => (failed ??= error));
  };
  if (sealer) {
    written = sealer.header.length;
    writing = writeAllParts(handle, [sealer.header], 0).catch((error: unknown) => (failed ??= error));
  }
  const flush = (): void => {
    if (batchBytes === 0) return;
    enqueue(batch.subarray(0, batchBytes));
    [batch, spare] = [spare, batch];
    batchBytes = 0;
  };
  const sink: JsonSink = {
    copies: true,
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
      // After a flush the caller waits for 'drain' (every write done) before its next chunk: so
      // the buffer just sent is free again by the next flush.
      const full = batchBytes + chunk.length > batch.length;
      if (full) flush();
      if (chunk.length >= batch.length) {
        // A pre-rendered group of several MB: written from a copy (the caller may reuse its buffer).
        enqueue(Buffer.from(chunk));
        return false;
      }
      batchBytes += chunk.copy(batch, batchBytes);
      return !full;
    },
    once(_event, listener) {
      void writing.then(listener);
      return sink;
    },
  };
  try {
    await render(sink);
    flush();
    if (sealer) {
      const last = sealer.end();
      const position = written;
      written += last.length;
      writing = writing.then(() => writeAllParts(handle, [last], position)).catch((error: unknown) => (failed ??= error));
    }
    await writing;
    if (failed) throw failed;
    if (sealer) await publishCopy(temp, path);
    else await rename(temp, path);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
  let open_ = true;
  // Throws EBADMSG when a piece read back fails (the file is this host's own, open since it was
  // written); then neither the handle nor the published file is left behind.
  let sealed: ReturnType<typeof sealedListingReader> | undefined;
  try {
    sealed = sealWith ? sealedListingReader(sealWith, path, handle.fd, written) : undefined;
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(path, { force: true });
    throw error;
  }
  return {
    path,
    starts,
    bytes,
    async part(k) {
      if (!open_ || k < 0 || k >= starts.length) return null;
      const from = starts[k]!;
      const to = k + 1 < starts.length ? starts[k + 1]! : bytes;
      if (sealed) return sealed.read(from, to - from).toString('utf8');
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

