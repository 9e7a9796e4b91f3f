import type { promises as fsp } from 'node:fs';

/**
 * Reads `length` bytes at `position`, looping over short reads; returns fewer bytes only at the
 * end of the file.
 */
export async function readFully(handle: fsp.FileHandle, length: number, position: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const { bytesRead } = await handle.read(buf, got, length - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got === length ? buf : buf.subarray(0, got);
}
