import { existsSync, readSync } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import { dirname, join, relative, isAbsolute, resolve } from 'node:path';
import { ENCRYPTION_FILE } from '../layout.js';
import { nodeDurableFs, type DurableFs } from '../../fs/durable-fs.js';
import { FILE_MAGIC, isSealedFile } from './at-rest-cipher.js';
import { cipherOf } from './encrypting-fs.js';
import { isSealedInPieces, PIECES_HEADER_BYTES } from './pieces-header.js';
import { openPieces, piecesReader, type PiecesReader } from './sealed-pieces.js';
import { StreamSealer } from './sealed-stream.js';

/**
 * The file system of each store this process has opened, by data directory. Services that keep
 * their own files under the data directory (approvals, tasks, the search index, the importers'
 * cache) write through it, so they are encrypted exactly when the store is, with the same key.
 * The latest open of a root wins (a rotation in this process registers the new key).
 */
const stores = new Map<string, DurableFs>();

/** `fs` undefined: the store at `root` is not encrypted (its services use plain node:fs). */
export function registerStoreFs(root: string, fs: DurableFs | undefined): void {
  if (fs) stores.set(resolve(root), fs);
  else stores.delete(resolve(root));
}

/** The store file system whose data directory holds `path`; plain node:fs when none is open here. */
export function storeFsFor(path: string): DurableFs {
  const abs = resolve(path);
  let best: { root: string; fs: DurableFs } | undefined;
  for (const [root, fs] of stores) {
    const rel = relative(root, abs);
    const inside = rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
    if (inside && (!best || root.length > best.root.length)) best = { root, fs };
  }
  return best?.fs ?? nodeDurableFs;
}

/** Bytes of a whole file as they go to disk: sealed when `path` is inside an encrypted store. */
export function sealFileFor(path: string, bytes: Uint8Array): Uint8Array {
  return cipherOf(storeFsFor(path))?.sealFile(path, bytes) ?? bytes;
}

/** Bytes of a whole file read from disk: opened when sealed (throws EBADMSG when it fails authentication); plaintext as it is. */
export function openFileFor(path: string, bytes: Buffer): Buffer {
  return cipherOf(storeFsFor(path))?.openFile(path, bytes) ?? bytes;
}

/**
 * Whether a whole file's bytes on disk are what the store at `path` writes now: sealed under its
 * current key when it is encrypted here, anything when it is not. A file that is not (written in
 * the clear before `baton encrypt --enable`, or under a key since rotated) is still read, and a
 * cache kept from it is written again.
 */
export function sealedAsStoreWrites(path: string, bytes: Buffer): boolean {
  const cipher = cipherOf(storeFsFor(path));
  return !cipher || cipher.isCurrentFile(bytes);
}

/** A whole file sealed in pieces (either layout), read back: every piece opened (throws EBADMSG naming the path when one fails); plaintext as it is. */
export function openPiecesFor(path: string, bytes: Buffer): Buffer {
  const cipher = cipherOf(storeFsFor(path));
  return cipher && isSealedFile(bytes) ? openPieces(cipher, path, bytes) : bytes;
}

/**
 * Positional reads of the plaintext of `fd` (`size` bytes), a file sealed in pieces (either layout);
 * undefined when the store at `path` is not encrypted here or the file is plaintext (read it as
 * it is). Throws EBADMSG naming the path when the header or a piece read fails authentication.
 */
export function piecesReaderFor(path: string, fd: number, size: number): PiecesReader | undefined {
  const cipher = cipherOf(storeFsFor(path));
  if (!cipher) return undefined;
  const start = Buffer.alloc(Math.min(size, FILE_MAGIC.length));
  readSync(fd, start, 0, start.length, 0);
  return isSealedFile(start) ? piecesReader(cipher, path, fd, size) : undefined;
}

/**
 * A sealer of the file `path` as its bytes come (sealed-stream.ts) when `path` is inside an
 * encrypted store; undefined otherwise (write the bytes as they are).
 */
export function streamSealerFor(path: string, options: { holdFirst?: boolean } = {}): StreamSealer | undefined {
  const cipher = cipherOf(storeFsFor(path));
  return cipher ? new StreamSealer(cipher, path, undefined, options) : undefined;
}

/**
 * A file's plaintext, read whole: sealed in pieces (either layout), its pieces are read and opened
 * a megabyte at a time into the plaintext's one buffer, never the whole ciphertext beside it;
 * sealed whole (the layout a cache had before it streamed) or plaintext, as openFileFor. Throws
 * EBADMSG naming the path when it fails authentication, and what reading throws (ENOENT …).
 */
export async function readFileOpened(path: string): Promise<Buffer> {
  const cipher = cipherOf(storeFsFor(path));
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const start = Buffer.alloc(Math.min(size, PIECES_HEADER_BYTES));
    await handle.read(start, 0, start.length, 0);
    if (cipher && isSealedInPieces(start)) {
      const reader = piecesReader(cipher, path, handle.fd, size);
      return reader.read(0, reader.size);
    }
    return openFileFor(path, await handle.readFile());
  } finally {
    await handle.close();
  }
}

/** Whether files at `path` are sealed (inside a store this process opened encrypted). */
export function sealsFilesAt(path: string): boolean {
  return cipherOf(storeFsFor(path)) !== undefined;
}

/**
 * Called after a cache at the top of a data directory was written in the clear (no cipher for it in
 * this process): removes it again if the directory turned encrypted meanwhile. A `baton list` opens
 * a new store without creating its key (cli/commands/listing-key-store.ts) while another process
 * may create it; that process removes the clear caches after writing encryption.json
 * (at-rest-state.ts), and this check after the rename covers the other order, so whichever step
 * comes last removes the clear file. A cache is rebuilt (sealed) by the next scan.
 */
export async function dropIfStoreTurnedEncrypted(path: string): Promise<void> {
  if (sealsFilesAt(path) || !existsSync(join(dirname(path), ENCRYPTION_FILE))) return;
  await unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') console.error(`baton: ${path} was written unencrypted just as the store turned encrypted, and could not be removed (${error.message}); remove it by hand`);
  });
}
