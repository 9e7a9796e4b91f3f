import { randomBytes } from 'node:crypto';
import { closeSync, readSync, type Stats } from 'node:fs';
import { copyFile, open, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { candidateIndexPrefix, IndexDamagedError, PREFIX_BYTES, type LayoutSource } from './candidate-index-layout.js';
import { piecesReaderFor } from '../store/at-rest/registry.js';

/**
 * Bytes per read window of a resident index, and windows kept: a listing reads rows in file
 * order (one window serves ~15 rows), the UI reads them newest first across every directory's
 * group (up to RESIDENT_READ_WINDOWS groups interleaved stay cached; past that a row costs one
 * 4 KB read, not 64 KB). 1 MB per region at most.
 */
export const RESIDENT_READ_WINDOW_BYTES = 4 * 1024;
export const RESIDENT_READ_WINDOWS = 256;
/** Bytes per read while a resident index is checked at load. */
export const RESIDENT_LOAD_CHUNK_BYTES = 1024 * 1024;

/** `length` bytes at `at` of an open file (shorter only at its end), read synchronously. */
export function readAt(fd: number, size: number, at: number, length: number): Buffer {
  const out = Buffer.allocUnsafe(Math.max(0, Math.min(length, size - at)));
  return out.subarray(0, readInto(fd, size, at, out));
}

/** Positional reads of an open index file (a listing read lazily: index-listing.ts). */
export function fdSource(fd: number, size: number): LayoutSource {
  let open = true;
  return {
    size,
    whole: null,
    read: (at, length) => readAt(fd, size, at, length),
    readInto: (at, target) => readInto(fd, size, at, target),
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

/**
 * Positional reads of an index file's plaintext: the file itself, or an encrypted store's index
 * through its pieces (sealedSource: only the pieces read are opened).
 */
export interface PlainReads {
  /** Plaintext bytes. */
  size: number;
  /** Fills `target` from `at` (fewer only at the end); the count filled. */
  readInto(at: number, target: Buffer): number;
}

/** The plaintext reads of the open index `file` (`fd`, `size` bytes on disk), sealed or not. */
export function plainReadsOf(file: string, fd: number, size: number): PlainReads {
  const sealed = sealedSource(file, fd, size);
  if (sealed) return { size: sealed.size, readInto: sealed.readInto! };
  return { size, readInto: (at, target) => readInto(fd, size, at, target) };
}

/** Reads of a resident index file's extras or listing block (windowedReader). */
export interface WindowedReader {
  /** Bytes [at, end) of the file, the caller's own. */
  read(at: number, end: number): Buffer;
  /** Copies bytes [at, end) of the file into `target` at `targetAt` (a listing's chunk: nothing allocated per row). */
  copy(at: number, end: number, target: Buffer, targetAt: number): void;
  /** Bytes [at, end) decoded as UTF-8 (a row or extras text parsed for the UI: no Buffer per row). */
  text(at: number, end: number): string;
}

/**
 * Reads of one region of a resident index file through aligned windows kept least recently used
 * (RESIDENT_READ_WINDOWS): a listing of 100,000 rows leaves no spent buffers for the collector
 * (an evicted window's buffer is reused), and scattered reads cost a small read each.
 */
export function windowedReader(file: PlainReads): WindowedReader {
  const { size } = file;
  const windows = new Map<number, Buffer>();
  let lastBase = -1;
  let last: Buffer = Buffer.alloc(0);
  const load = (base: number): Buffer => {
    // The window just used again (rows read in file order): no reordering.
    if (base === lastBase) return last;
    lastBase = base;
    return (last = loadWindow(base));
  };
  const loadWindow = (base: number): Buffer => {
    let window = windows.get(base);
    if (window) {
      // Most recently used last (Map keeps insertion order).
      windows.delete(base);
      windows.set(base, window);
      return window;
    }
    let buf: Buffer;
    if (windows.size >= RESIDENT_READ_WINDOWS) {
      const [oldest, spent] = windows.entries().next().value as [number, Buffer];
      windows.delete(oldest);
      buf = spent.length === RESIDENT_READ_WINDOW_BYTES ? spent : Buffer.allocUnsafe(RESIDENT_READ_WINDOW_BYTES);
    } else buf = Buffer.allocUnsafe(RESIDENT_READ_WINDOW_BYTES);
    // The buffer's full length: a window at the end of the file is read short.
    const bytes = file.readInto(base, buf.subarray(0, RESIDENT_READ_WINDOW_BYTES));
    window = buf.subarray(0, bytes);
    windows.set(base, window);
    return window;
  };
  /** The window holding [at, end), or null when the bytes span two windows (read exactly). */
  const windowOf = (at: number, end: number): Buffer | null => {
    const base = at - (at % RESIDENT_READ_WINDOW_BYTES);
    if (end - base > RESIDENT_READ_WINDOW_BYTES) return null;
    const window = load(base);
    if (end - base > window.length) throw new Error(`the candidate index is shorter than recorded (${end} > ${base + window.length})`);
    return window;
  };
  const within = (at: number, end: number): Buffer | null => {
    const window = windowOf(at, end);
    const base = at - (at % RESIDENT_READ_WINDOW_BYTES);
    return window ? window.subarray(at - base, end - base) : null;
  };
  const exact = (at: number, end: number): Buffer => {
    const out = Buffer.allocUnsafe(Math.max(0, Math.min(end, size) - at));
    const got = file.readInto(at, out);
    if (got !== end - at) throw new Error(`the candidate index is shorter than recorded (${end} > ${at + got})`);
    return out;
  };
  return {
    read(at, end) {
      const bytes = within(at, end);
      return bytes ? Buffer.from(bytes) : exact(at, end);
    },
    copy(at, end, target, targetAt) {
      const window = windowOf(at, end);
      const base = at - (at % RESIDENT_READ_WINDOW_BYTES);
      if (window) window.copy(target, targetAt, at - base, end - base);
      else exact(at, end).copy(target, targetAt);
    },
    text(at, end) {
      const window = windowOf(at, end);
      const base = at - (at % RESIDENT_READ_WINDOW_BYTES);
      return window ? window.toString('utf8', at - base, end - base) : exact(at, end).toString('utf8');
    },
  };
}

/** Fills `into` from `at` (shorter only at the end of the file): the bytes read. */
function readInto(fd: number, size: number, at: number, into: Buffer): number {
  const length = Math.max(0, Math.min(into.length, size - at));
  let got = 0;
  while (got < length) {
    const n = readSync(fd, into, got, length - got, at + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

/**
 * A resident index (the host's, issue 15): only the prefix, head, columns and arrays are kept for
 * the layout to parse; the extras and the listing block (37 of 57 MB at 100,000 sessions) stay
 * on disk and are read back through the open file. Every byte is still checked at load: the
 * whole file's CRC is computed as it streams past (an encrypted store's: every piece opened, a
 * megabyte at a time, never the whole plaintext at once). Null when the file is short, damaged or
 * not this layout. The source answers only reads before `keptBytes`.
 *
 * `read`: the plaintext's positional reads (a plain file's asynchronous, off this thread).
 */
export async function readResidentPrefix(size: number, read: (target: Buffer, at: number) => number | Promise<number>): Promise<{ source: LayoutSource; keptBytes: number } | null> {
  const prefix = Buffer.alloc(PREFIX_BYTES);
  if ((await read(prefix, 0)) !== prefix.length) return null;
  const p = candidateIndexPrefix(prefix);
  if (!p || p.extrasAt > size) return null;
  const kept = Buffer.allocUnsafe(p.extrasAt);
  let crc = 0;
  const chunk = Buffer.allocUnsafe(RESIDENT_LOAD_CHUNK_BYTES);
  for (let at = 0; at < size; ) {
    const target = at < kept.length ? kept : chunk;
    const offset = at < kept.length ? at : 0;
    const want = at < kept.length ? Math.min(kept.length - at, RESIDENT_LOAD_CHUNK_BYTES) : Math.min(size - at, chunk.length);
    const bytesRead = await read(target.subarray(offset, offset + want), at);
    if (bytesRead === 0) return null;
    // The CRC covers everything after the prefix; Node 20's crc32 of an empty view is 0 whatever the running value.
    const bytes = target.subarray(offset, offset + bytesRead).subarray(Math.max(0, PREFIX_BYTES - at));
    if (bytes.length > 0) crc = crc32(bytes, crc);
    at += bytesRead;
  }
  if (crc !== p.crc) return null;
  return {
    keptBytes: kept.length,
    source: {
      size,
      whole: null,
      // Copies: the layout keeps small arrays, and the columns' text must not hold the kept bytes alive.
      read: (at, length) => Buffer.from(kept.subarray(at, Math.min(at + length, kept.length))),
      // The arrays are read straight into their own memory (readLayout): one copy, not two.
      readInto: (at, target) => (at < kept.length ? kept.copy(target, 0, at, Math.min(at + target.length, kept.length)) : 0),
    },
  };
}

/**
 * A private copy of an index file for a resident holder, open and already unlinked: what the
 * holder reads back later cannot change under it, even if someone rewrites the index in place
 * (Baton itself always renames a new one over it). The copy is made by the kernel
 * (copy_file_range), not through this process's memory. Null when the file changed while it was
 * copied (`opened`: its stat when it was opened).
 */
export async function privateCopyOf(file: string, opened: Stats): Promise<FileHandle | null> {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.resident`);
  try {
    await copyFile(file, temp);
    const copy = await open(temp, 'r');
    const now = await stat(file);
    if (now.ino !== opened.ino || now.size !== opened.size || now.mtimeMs !== opened.mtimeMs || (await copy.stat()).size !== opened.size) {
      await copy.close();
      return null;
    }
    return copy;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/**
 * Positional reads of a sealed index's plaintext (only the pieces read are opened); undefined for
 * a plaintext file. A piece that fails authentication is damage to the listing (IndexDamagedError:
 * the caller falls back to the scan, as for a group whose CRC fails).
 */
export function sealedSource(file: string, fd: number, size: number): LayoutSource | undefined {
  const pieces = piecesReaderFor(file, fd, size);
  if (!pieces) return undefined;
  const damaged = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      throw (error as NodeJS.ErrnoException).code === 'EBADMSG' ? new IndexDamagedError((error as Error).message) : error;
    }
  };
  const plain = fdSource(fd, size);
  return {
    size: pieces.size,
    whole: null,
    read: (at, length) => damaged(() => pieces.read(at, length)),
    readInto: (at, target) => damaged(() => pieces.readInto(at, target)),
    slices: (at, length) => damaged(() => pieces.slices(at, length)),
    close: plain.close,
  };
}

