import { basename } from 'node:path';
import type { DurableFile, DurableFs, OpenFlags } from '../../fs/durable-fs.js';
import { delegatingFs } from '../../fs/delegating-fs.js';
import { TEMP_SUFFIX } from '../../fs/write-file-atomic.js';

const LOG_SUFFIX = '.jsonl';
import type { AtRestCipher } from './at-rest-cipher.js';

/**
 * The store's file system with encryption at rest: every file created whole ('wx'/'w', the atomic
 * temp-then-rename protocol and checkpoints) is sealed as one blob, and readFile opens it again.
 * Append-only logs are not sealed here (their byte offsets must stay what recovery sees): they seal
 * each line through `cipherOf(fs)` (record codec, LineLog, index journal).
 */
const ciphers = new WeakMap<DurableFs, AtRestCipher>();

/** The at-rest cipher of a store's file system, or undefined when the store is not encrypted. */
export function cipherOf(fs: DurableFs): AtRestCipher | undefined {
  return ciphers.get(fs);
}

/**
 * JSON-lines logs (messages.jsonl and the others), and temp files that will be renamed over one,
 * are sealed line by line by their writers, never whole: a whole-sealed log would read as one
 * damaged line, and recovery cuts a damaged tail.
 */
function isLineLog(path: string): boolean {
  const name = basename(path);
  return name.endsWith(LOG_SUFFIX) || (name.endsWith(TEMP_SUFFIX) && name.includes(`${LOG_SUFFIX}.`));
}

export function encryptingFs(inner: DurableFs, cipher: AtRestCipher): DurableFs {
  const fs = delegatingFs(inner, {
    open: async (path: string, flags: OpenFlags, mode?: number) => {
      const file = await inner.open(path, flags, mode);
      return (flags === 'wx' || flags === 'w') && !isLineLog(path) ? new SealingFile(file, cipher) : file;
    },
    readFile: async (path) => {
      const bytes = await inner.readFile(path);
      return cipher.openFile(path, bytes) ?? bytes;
    },
  });
  ciphers.set(fs, cipher);
  return fs;
}

/** A file written whole in one write at offset 0 (what the atomic-write protocol does), sealed on the way out. */
class SealingFile implements DurableFile {
  private written = false;

  constructor(
    private readonly inner: DurableFile,
    private readonly cipher: AtRestCipher,
  ) {}

  get path(): string {
    return this.inner.path;
  }

  async write(data: Uint8Array, position?: number): Promise<void> {
    if (this.written || (position !== undefined && position !== 0)) throw new Error(`${this.path}: an encrypted file is written whole, in one write at offset 0.`);
    this.written = true;
    await this.inner.write(this.cipher.sealFile(this.path, data), 0);
  }

  read(length: number, position: number): Promise<Buffer> {
    return this.inner.read(length, position);
  }

  sync(): Promise<void> {
    return this.inner.sync();
  }

  truncate(length: number): Promise<void> {
    return this.inner.truncate(length);
  }

  stat(): ReturnType<DurableFile['stat']> {
    return this.inner.stat();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
