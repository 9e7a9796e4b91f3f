import { delegatingFs } from './delegating-fs.js';
import type { DurableFs, FileStat } from './durable-fs.js';

/**
 * A DurableFs that starts reading some files now, so their bytes come off the disk while the
 * caller waits on something else (the store's open: the at-rest key from the OS keychain, a D-Bus
 * round trip of several ms). Each read-ahead is used once, and only when the file still has the
 * inode, size and mtime it had while it was read (stat before and after the read, and again when
 * it is used): a file replaced or written in between is read again, so nothing stale is returned.
 */
interface Ahead {
  stamp: string;
  bytes: Buffer;
}

function stampOf(st: FileStat): string {
  return `${st.ino}:${st.size}:${st.mtimeMs}`;
}

export function readAheadFs(inner: DurableFs, paths: readonly string[]): DurableFs {
  const pending = new Map<string, Promise<Ahead | undefined>>();
  for (const path of paths) {
    pending.set(
      path,
      (async () => {
        const before = stampOf(await inner.stat(path));
        const bytes = await inner.readFile(path);
        return before === stampOf(await inner.stat(path)) ? { stamp: before, bytes } : undefined;
      })().catch(() => undefined),
    );
  }
  return delegatingFs(inner, {
    async readFile(path) {
      const ahead = pending.get(path);
      if (ahead) {
        pending.delete(path);
        const got = await ahead;
        const now = got && (await inner.stat(path).catch(() => undefined));
        if (got && now && stampOf(now) === got.stamp) return got.bytes;
      }
      return inner.readFile(path);
    },
  });
}
