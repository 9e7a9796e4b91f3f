import type { FileHandle } from 'node:fs/promises';

/** What writeAllParts needs of a FileHandle (tests give one that writes less than asked). */
export type VectorWriter = Pick<FileHandle, 'writev'>;

/**
 * Writes every byte of `parts`, in order, with as few writev calls as the kernel allows: at
 * `position` (positional, the file offset unchanged), or at the file's offset when omitted. A
 * sealed file's pieces come as their nonce, ciphertext and tag apart (aead.ts sealParts): written
 * together here instead of concatenated first, and in one call per batch instead of one a piece
 * (250 thread-pool hops for the 16 MB importers' cache of 20,000 sessions).
 */
export async function writeAllParts(handle: VectorWriter, parts: readonly Uint8Array[], position?: number): Promise<void> {
  let left = parts.filter((p) => p.length > 0);
  let at = position;
  while (left.length > 0) {
    const { bytesWritten } = await handle.writev(left as NodeJS.ArrayBufferView[], at);
    // Nothing written with bytes left would loop for ever: say so instead.
    if (bytesWritten === 0) throw Object.assign(new Error(`writev wrote nothing with ${left.reduce((n, p) => n + p.length, 0)} bytes left`), { code: 'EIO' });
    if (at !== undefined) at += bytesWritten;
    // writev may write less than asked: drop the parts written, cut the one written in part.
    let n = bytesWritten;
    let k = 0;
    while (k < left.length && n >= left[k]!.length) n -= left[k++]!.length;
    left = left.slice(k);
    if (n > 0) left[0] = left[0]!.subarray(n);
  }
}
