import { open, readFile } from 'node:fs/promises';

/** A small file read whole: its bytes, or why not; null when it does not exist. */
export type SmallFile = { bytes: Buffer } | { error: string };

/**
 * Reads a regular file of at most `maxBytes` (settings, instructions, configuration the user
 * wrote), checking the size on the open handle so a file that grows meanwhile is still bounded
 * by what was checked. A missing file (or a missing directory on the way) is null, not an error;
 * anything else is named so the caller can list it without failing.
 */
export async function readSmallFile(path: string, maxBytes: number, tooLarge: string): Promise<SmallFile | null> {
  try {
    const handle = await open(path, 'r');
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) return { error: 'not a regular file' };
      if (stat.size > maxBytes) return { error: `over ${maxBytes} bytes, ${tooLarge}` };
      return { bytes: await handle.readFile() };
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    return { error: `cannot read: ${(error as Error).message}` };
  }
}

/** A UTF-8 file's text, or undefined when it does not exist; other errors are thrown. */
export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
