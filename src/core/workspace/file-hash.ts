import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readFile, readlink } from 'node:fs/promises';

/** Files up to this size are read in one call; larger ones are streamed (constant memory). */
const READ_WHOLE_MAX_BYTES = 1024 * 1024;

export interface DiskHash {
  sha256: string | null;
  size: number | null;
  kind: 'file' | 'symlink' | 'missing' | 'other';
  /** The mode as git records it: 100644, 100755 or 120000; null when missing or not a file. */
  gitMode: string | null;
}

/**
 * sha256 of what is on disk at `absPath`, streamed so a large file costs constant memory.
 * A symlink hashes its target text (as git stores it); a directory or a missing path has no hash.
 */
export async function hashDiskPath(absPath: string): Promise<DiskHash> {
  let stats;
  try {
    stats = await lstat(absPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { sha256: null, size: null, kind: 'missing', gitMode: null };
    throw error;
  }
  if (stats.isSymbolicLink()) {
    const target = Buffer.from(await readlink(absPath, { encoding: 'buffer' }));
    return { sha256: createHash('sha256').update(target).digest('hex'), size: target.length, kind: 'symlink', gitMode: '120000' };
  }
  if (!stats.isFile()) return { sha256: null, size: null, kind: 'other', gitMode: null };
  const gitMode = stats.mode & 0o100 ? '100755' : '100644';
  if (stats.size <= READ_WHOLE_MAX_BYTES) {
    // A stream costs ~0.2 ms of set-up per file: 1,000 small files took 250 ms instead of 40.
    const bytes = await readFile(absPath);
    return { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, kind: 'file', gitMode };
  }
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(absPath, { highWaterMark: 1024 * 1024 })) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size, kind: 'file', gitMode };
}

/** Runs `work` over items with at most `limit` in flight (hashing 1,000 files one by one is slow). */
export async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  });
  await Promise.all(runners);
  return results;
}
