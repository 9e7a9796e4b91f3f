import { closeSync, fstatSync, mkdtempSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * The files a GitSpawner batch leaves in its private directory (each git's stdout and stderr),
 * read back by the host once the batch has ended (git-spawner.ts).
 */

/** A streamed stdout is handed over in chunks of this size (a patch is never held whole twice). */
const STREAM_CHUNK_BYTES = 1024 * 1024;

/**
 * Outputs up to this size are read with synchronous calls: microseconds from the page cache,
 * where the thread pool's four threads may be held by a hosted landing's fsyncs running beside
 * git (each async open, stat, read and close would queue behind them). Larger ones are read async.
 */
const SYNC_READ_MAX_BYTES = 256 * 1024;

/** A batch's private directory (null when it cannot be made): one mkdir, synchronous for the same reason. */
export function makeBatchDir(prefix: string): string | null {
  try {
    return mkdtempSync(prefix);
  } catch {
    return null;
  }
}

/** Writes `text` to a new file only its owner can read (it fails if the file exists); false when it cannot. */
export function writePrivateFile(path: string, text: string): boolean {
  try {
    writeFileSync(path, text, { flag: 'wx', mode: 0o600 });
    return true;
  } catch {
    return false;
  }
}

/** The file's first `limit` bytes when they are at most SYNC_READ_MAX_BYTES (empty when it is missing), or null for a larger one. */
function readSmall(path: string, limit: number): Buffer | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return Buffer.alloc(0);
  }
  try {
    const size = Math.min(fstatSync(fd).size, limit);
    if (size > SYNC_READ_MAX_BYTES) return null;
    const buffer = Buffer.alloc(size);
    let filled = 0;
    while (filled < size) {
      const read = readSync(fd, buffer, filled, size - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    return buffer.subarray(0, filled);
  } catch {
    return Buffer.alloc(0);
  } finally {
    closeSync(fd);
  }
}

/** The file's first `limit` bytes at most (empty when it is missing), without reading the rest. */
export async function readAtMost(path: string, limit: number): Promise<Buffer> {
  const small = readSmall(path, limit);
  if (small !== null) return small;
  const handle = await open(path, 'r').catch(() => null);
  if (handle === null) return Buffer.alloc(0);
  try {
    const buffer = Buffer.alloc(Math.min((await handle.stat()).size, limit));
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } catch {
    return Buffer.alloc(0);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** The file's size in bytes (0 when it is missing, as an empty stdout); one stat, synchronous as readSmall is. */
export function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Hands the file's first `limit` bytes to `onChunk`, STREAM_CHUNK_BYTES at a time (nothing when it is missing). */
export async function streamFile(path: string, limit: number, onChunk: (chunk: Buffer) => void): Promise<void> {
  const small = readSmall(path, limit);
  if (small !== null) {
    if (small.length > 0) onChunk(small);
    return;
  }
  const handle = await open(path, 'r').catch(() => null);
  if (handle === null) return;
  try {
    for (let position = 0; position < limit; ) {
      const chunk = Buffer.alloc(Math.min(STREAM_CHUNK_BYTES, limit - position));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) break;
      onChunk(chunk.subarray(0, bytesRead));
      position += bytesRead;
    }
  } finally {
    await handle.close().catch(() => undefined);
  }
}
