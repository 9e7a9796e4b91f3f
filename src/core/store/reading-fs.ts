import { closeSync, chmodSync, existsSync, fstatSync, lstatSync, openSync, readdirSync, readFileSync, readSync, statSync, type Stats } from 'node:fs';
import { delegatingFs } from '../fs/delegating-fs.js';
import { nodeDurableFs, type DurableFile, type DurableFs, type FileStat } from '../fs/durable-fs.js';

/**
 * The file system of a store opened for reading (open-for-reading.ts): what a listing reads
 * (the tree's lstat checks, encryption.json, index.json and its journal, the two session
 * directories) is read with node:fs's synchronous calls, as promises already settled. A listing
 * waits on each of these reads in turn, and each went through the thread pool (a hop there and
 * back) and made the process load node:fs/promises (with readline's interface, 12 modules) for
 * them. Writes are handed to `inner` unchanged: the store opened for reading refuses its own
 * (READ_ONLY), and an encrypted store's caches (the importers' scan) still write through it.
 */
export function readingFs(inner: DurableFs = nodeDurableFs): DurableFs {
  return delegatingFs(inner, {
    async open(path, flags, mode) {
      if (flags !== 'r') return inner.open(path, flags, mode);
      return new ReadingFile(path, openSync(path, 'r'));
    },
    readFile: async (path) => readFileSync(path),
    readdir: async (path) => readdirSync(path),
    stat: async (path) => statOf(statSync(path)),
    lstat: async (path) => statOf(lstatSync(path)),
    // The open's permission check narrows a mode wider than 0700/0600, as the writer's open does.
    chmod: async (path, mode) => chmodSync(path, mode),
    existsSync: (path) => existsSync(path),
  });
}

function statOf(s: Stats): FileStat {
  return { size: s.size, mode: s.mode, uid: s.uid, ino: s.ino, mtimeMs: s.mtimeMs, isFile: s.isFile(), isDirectory: s.isDirectory(), isSymbolicLink: s.isSymbolicLink() };
}

const NOT_FOR_WRITING = 'a file opened for reading is not written';

/** A file opened 'r' on a synchronous descriptor: reads loop over short reads as readFully does. */
class ReadingFile implements DurableFile {
  private closed = false;

  constructor(
    readonly path: string,
    private readonly fd: number,
  ) {}

  async read(length: number, position: number): Promise<Buffer> {
    const buf = Buffer.allocUnsafe(length);
    let got = 0;
    while (got < length) {
      const n = readSync(this.fd, buf, got, length - got, position + got);
      if (n === 0) break;
      got += n;
    }
    return got === length ? buf : buf.subarray(0, got);
  }

  async stat(): Promise<FileStat> {
    return statOf(fstatSync(this.fd));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  write(): Promise<void> {
    return Promise.reject(Object.assign(new Error(NOT_FOR_WRITING), { code: 'EBADF' }));
  }

  sync(): Promise<void> {
    return Promise.reject(Object.assign(new Error(NOT_FOR_WRITING), { code: 'EBADF' }));
  }

  truncate(): Promise<void> {
    return Promise.reject(Object.assign(new Error(NOT_FOR_WRITING), { code: 'EBADF' }));
  }
}
