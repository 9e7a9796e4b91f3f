import { relative, isAbsolute, resolve } from 'node:path';
import { nodeDurableFs, type DurableFs } from '../../fs/durable-fs.js';
import { cipherOf } from './encrypting-fs.js';

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

/** Whether files at `path` are sealed (inside a store this process opened encrypted). */
export function sealsFilesAt(path: string): boolean {
  return cipherOf(storeFsFor(path)) !== undefined;
}
