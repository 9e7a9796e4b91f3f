import { existsSync, promises as fsp, constants as fsc } from 'node:fs';
import { readFully } from './read-fully.js';
import { tracePart } from '../perf/phase-trace.js';

/**
 * The file-system operations the store needs, behind one interface so tests can inject faults
 * (power loss, ENOSPC/EIO at the Nth call, a SIGKILL after the Kth write). The store and its logs
 * (approvals, tasks) never call node:fs directly.
 */
export interface FileStat {
  size: number;
  mode: number;
  uid: number;
  ino: number;
  mtimeMs: number;
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
}

/** 'r' read, 'r+' read/write existing, 'a' append (create), 'a+' append and read, 'wx' create exclusive, 'w' create/truncate. */
export type OpenFlags = 'r' | 'r+' | 'a' | 'a+' | 'wx' | 'w';

export interface DurableFile {
  readonly path: string;
  /** Writes every byte of data, at `position` or (append mode) at the end. */
  write(data: Uint8Array, position?: number): Promise<void>;
  /** Reads up to `length` bytes at `position`; shorter at end of file. */
  read(length: number, position: number): Promise<Buffer>;
  sync(): Promise<void>;
  truncate(length: number): Promise<void>;
  stat(): Promise<FileStat>;
  close(): Promise<void>;
}

export interface DurableFs {
  open(path: string, flags: OpenFlags, mode?: number): Promise<DurableFile>;
  readFile(path: string): Promise<Buffer>;
  rename(from: string, to: string): Promise<void>;
  /** Hard link: fails with EEXIST when `to` exists, which makes it an atomic create-if-absent. */
  link(existing: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  /** mkdir -p with `mode` for every directory it creates. */
  mkdir(path: string, mode: number): Promise<void>;
  readdir(path: string): Promise<string[]>;
  stat(path: string): Promise<FileStat>;
  lstat(path: string): Promise<FileStat>;
  chmod(path: string, mode: number): Promise<void>;
  /** fsync of a directory, so a create/rename/unlink inside it survives power loss. */
  fsyncDir(path: string): Promise<void>;
  /** rm -rf of a directory tree (a half-built session directory left by a dead process). */
  removeTree(path: string): Promise<void>;
  /**
   * Synchronous existence check, for the few synchronous callers (the store's `sessionDir`) and
   * hot paths where a rejected stat would cost an Error per call.
   */
  existsSync(path: string): boolean;
}

function toStat(s: import('node:fs').Stats): FileStat {
  return {
    size: s.size,
    mode: s.mode,
    uid: s.uid,
    ino: s.ino,
    mtimeMs: s.mtimeMs,
    isFile: s.isFile(),
    isDirectory: s.isDirectory(),
    isSymbolicLink: s.isSymbolicLink(),
  };
}

class NodeFile implements DurableFile {
  constructor(
    readonly path: string,
    private readonly handle: fsp.FileHandle,
    private readonly appendMode: boolean,
  ) {}

  async write(data: Uint8Array, position?: number): Promise<void> {
    let done = 0;
    while (done < data.length) {
      const at = this.appendMode || position === undefined ? null : position + done;
      const { bytesWritten } = await this.handle.write(data, done, data.length - done, at);
      done += bytesWritten;
    }
  }

  read(length: number, position: number): Promise<Buffer> {
    return readFully(this.handle, length, position);
  }

  sync(): Promise<void> {
    return tracePart('fsync', this.handle.sync());
  }

  truncate(length: number): Promise<void> {
    return this.handle.truncate(length);
  }

  async stat(): Promise<FileStat> {
    return toStat(await this.handle.stat());
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

/** The real implementation on node:fs/promises. */
export const nodeDurableFs: DurableFs = {
  async open(path, flags, mode = 0o600) {
    const handle = await fsp.open(path, flags, mode);
    return new NodeFile(path, handle, flags === 'a' || flags === 'a+');
  },
  readFile: (path) => fsp.readFile(path),
  rename: (from, to) => fsp.rename(from, to),
  link: (existing, to) => fsp.link(existing, to),
  unlink: (path) => fsp.unlink(path),
  async mkdir(path, mode) {
    await fsp.mkdir(path, { recursive: true, mode });
  },
  readdir: (path) => fsp.readdir(path),
  stat: async (path) => toStat(await fsp.stat(path)),
  lstat: async (path) => toStat(await fsp.lstat(path)),
  chmod: (path, mode) => fsp.chmod(path, mode),
  removeTree: (path) => fsp.rm(path, { recursive: true, force: true }),
  existsSync: (path) => existsSync(path),
  async fsyncDir(path) {
    // Windows cannot open a directory for fsync; NTFS journals the metadata itself.
    if (process.platform === 'win32') return;
    const handle = await fsp.open(path, fsc.O_RDONLY);
    try {
      await tracePart('fsync', handle.sync());
    } finally {
      await handle.close();
    }
  },
};
