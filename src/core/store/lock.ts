import { hostname } from 'node:os';
import type { DurableFs } from '../fs/durable-fs.js';
import { StoreError, errnoOf, fromFsError } from './errors.js';

/** A lock older than this is stale even when its pid looks alive (pid reuse, another host). */
export const LOCK_STALE_MS = 30_000;
/** How long acquire waits for a live holder before giving up with CONFLICT. */
export const LOCK_WAIT_MS = 10_000;
const LOCK_RETRY_MS = 5;

interface LockBody {
  pid: number;
  host: string;
  at: number;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoOf(error) === 'EPERM';
  }
}

async function isStale(fs: DurableFs, path: string, now: number): Promise<boolean> {
  let body: LockBody;
  try {
    body = JSON.parse((await fs.readFile(path)).toString('utf8')) as LockBody;
  } catch (error) {
    // Unreadable or half-written: stale once it is old enough that its writer would have finished.
    if (errnoOf(error) === 'ENOENT') return false;
    const st = await fs.stat(path).catch(() => undefined);
    return !st || now - st.mtimeMs > 1000;
  }
  if (now - body.at > LOCK_STALE_MS) return true;
  return body.host === hostname() && !alive(body.pid);
}

/**
 * Cross-process lock file (create-exclusive). Used only for index compaction and rebuild; a lock
 * left by a dead process, or older than LOCK_STALE_MS, is broken by renaming it away first, so two
 * processes breaking it at once cannot both win.
 */
export async function withFileLock<T>(fs: DurableFs, path: string, run: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const file = await fs.open(path, 'wx', 0o600);
      try {
        await file.write(Buffer.from(JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now() } satisfies LockBody)), 0);
      } finally {
        await file.close();
      }
      break;
    } catch (error) {
      if (errnoOf(error) !== 'EEXIST') throw fromFsError(error, path, 'taking the index lock');
    }
    if (await isStale(fs, path, Date.now())) {
      const aside = `${path}.stale-${process.pid}-${Date.now()}`;
      await fs
        .rename(path, aside)
        .then(() => fs.unlink(aside))
        .catch(() => undefined);
      continue;
    }
    if (Date.now() > deadline) throw new StoreError('CONFLICT', `Another Baton process holds ${path}; retry in a moment.`, path);
    await new Promise((r) => setTimeout(r, LOCK_RETRY_MS));
  }
  try {
    return await run();
  } finally {
    await fs.unlink(path).catch(() => undefined);
  }
}
