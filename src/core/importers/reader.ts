import { closeSync, openSync, promises as fsp, readSync, statSync } from 'node:fs';
import { STAT_BATCH } from './limits.js';
import { readFully } from '../fs/read-fully.js';

/**
 * The only file-system reads the importers make, behind one interface so a test can count the
 * bytes read and inject failures. Nothing here writes: Baton never writes into another tool's
 * directory.
 */
export interface ImportEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  /** A symbolic link: followed only when its target stays inside the tool's folder (discover.ts). */
  isSymbolicLink?: boolean;
}

export interface ImportStat {
  size: number;
  mtimeMs: number;
  isFile: boolean;
}

export interface ImportHandle {
  /** Up to `length` bytes at `position`; shorter at end of file. */
  read(position: number, length: number): Promise<Buffer>;
  close(): Promise<void>;
}

export interface ImportReader {
  readdir(dir: string): Promise<ImportEntry[]>;
  stat(path: string): Promise<ImportStat>;
  /** Many stats at once (optional): an ImportStat or the error, per path, in order. */
  statMany?(paths: string[]): Promise<Array<ImportStat | Error>>;
  open(path: string): Promise<ImportHandle>;
  /** The path with every link resolved; without it links are never followed. */
  realpath?(path: string): Promise<string>;
  /**
   * The first `length` bytes of each file (shorter at end of file), or the error, per item, in
   * order (optional). A cold scan reads its small files whole this way: one open, read and close
   * each, without the thread-pool hop of a FileHandle per call.
   */
  readPrefixes?(items: ReadonlyArray<{ path: string; length: number }>): Promise<Array<Buffer | Error>>;
}

class NodeHandle implements ImportHandle {
  constructor(private readonly handle: fsp.FileHandle) {}

  read(position: number, length: number): Promise<Buffer> {
    return readFully(this.handle, length, position);
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

export const nodeImportReader: ImportReader = {
  async readdir(dir) {
    const entries = await fsp.readdir(dir, { withFileTypes: true });
    return entries.map((e) => {
      // A symlink is followed by stat later; list it as a possible file.
      const link = e.isSymbolicLink();
      return { name: e.name, isFile: e.isFile() || link, isDirectory: e.isDirectory() || link, isSymbolicLink: link };
    });
  },
  realpath: (path) => fsp.realpath(path),
  async stat(path) {
    const s = await fsp.stat(path);
    return { size: s.size, mtimeMs: s.mtimeMs, isFile: s.isFile() };
  },
  /**
   * A warm rescan is mostly stats. Thousands of fs.promises.stat calls cost about ten times the
   * stats themselves (promise and thread-pool hops), so they run synchronously in batches of
   * STAT_BATCH, yielding to the event loop between batches.
   */
  async statMany(paths) {
    const out: Array<ImportStat | Error> = [];
    for (let i = 0; i < paths.length; i += STAT_BATCH) {
      for (const path of paths.slice(i, i + STAT_BATCH)) {
        try {
          const s = statSync(path);
          out.push({ size: s.size, mtimeMs: s.mtimeMs, isFile: s.isFile() });
        } catch (error) {
          out.push(error as Error);
        }
      }
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return out;
  },
  async open(path) {
    return new NodeHandle(await fsp.open(path, 'r'));
  },
  /**
   * Synchronous, like statMany: at 20,000 files of 20 KB a cold scan spent more time in the
   * promise and thread-pool hops of open/read/close (and idle between them) than in the reads.
   * The caller passes small batches (SCAN_READ_BATCH files of at most WHOLE_READ_MAX_BYTES), so
   * one call blocks the event loop for a few milliseconds; it yields before answering.
   */
  async readPrefixes(items) {
    const out: Array<Buffer | Error> = [];
    for (const { path, length } of items) {
      let fd = -1;
      try {
        fd = openSync(path, 'r');
        const buf = Buffer.allocUnsafe(length);
        let got = 0;
        while (got < length) {
          const n = readSync(fd, buf, got, length - got, got);
          if (n === 0) break;
          got += n;
        }
        out.push(got === length ? buf : buf.subarray(0, got));
      } catch (error) {
        out.push(error as Error);
      } finally {
        if (fd >= 0) closeSync(fd);
      }
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
    return out;
  },
};

/** statMany when the reader has it, else one stat at a time. */
export async function statAll(reader: ImportReader, paths: string[]): Promise<Array<ImportStat | Error>> {
  if (reader.statMany) return reader.statMany(paths);
  const out: Array<ImportStat | Error> = [];
  for (const path of paths) out.push(await reader.stat(path).catch((error: unknown) => error as Error));
  return out;
}

/** A reader that counts what passes through it: opens, reads and bytes. */
export interface CountingReader extends ImportReader {
  readonly counts: { opens: number; reads: number; bytes: number; byPath: Map<string, number> };
}

export function countingReader(base: ImportReader = nodeImportReader): CountingReader {
  const counts = { opens: 0, reads: 0, bytes: 0, byPath: new Map<string, number>() };
  return {
    counts,
    readdir: (dir) => base.readdir(dir),
    stat: (path) => base.stat(path),
    ...(base.statMany ? { statMany: base.statMany.bind(base) } : {}),
    ...(base.realpath ? { realpath: base.realpath.bind(base) } : {}),
    ...(base.readPrefixes
      ? {
          async readPrefixes(items: ReadonlyArray<{ path: string; length: number }>) {
            const out = await base.readPrefixes!(items);
            out.forEach((r, i) => {
              if (r instanceof Error) return; // the scan falls back to open(), counted there
              counts.opens += 1;
              counts.reads += 1;
              counts.bytes += r.length;
              const path = items[i]!.path;
              counts.byPath.set(path, (counts.byPath.get(path) ?? 0) + r.length);
            });
            return out;
          },
        }
      : {}),
    async open(path) {
      const handle = await base.open(path);
      counts.opens += 1;
      return {
        async read(position, length) {
          const buf = await handle.read(position, length);
          counts.reads += 1;
          counts.bytes += buf.length;
          counts.byPath.set(path, (counts.byPath.get(path) ?? 0) + buf.length);
          return buf;
        },
        close: () => handle.close(),
      };
    },
  };
}
