import { join } from 'node:path';
import type { DurableFs } from '../fs/durable-fs.js';
import { tempOwnerPid } from '../fs/write-file-atomic.js';
import { errnoOf } from './errors.js';

/** A temp file of a live process is someone's write in progress: only leftovers of dead ones go. */
function ownerDead(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return errnoOf(error) === 'ESRCH';
  }
}

/** Removes temp files (and half-created session directories) left by processes that died. */
export async function cleanTemps(fs: DurableFs, dir: string): Promise<number> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    // Temp files and staging directories are dot names: the other thousands (sessions, receipts) skip the patterns.
    if (!name.startsWith('.')) continue;
    const pid = tempOwnerPid(name) ?? creatingOwnerPid(name);
    if (pid === undefined || !ownerDead(pid)) continue;
    if (name.endsWith('.creating')) await fs.removeTree(join(dir, name)).catch(() => undefined);
    else await fs.unlink(join(dir, name)).catch(() => undefined);
    removed += 1;
  }
  if (removed > 0) await fs.fsyncDir(dir).catch(() => undefined);
  return removed;
}

/** Staging directory of a session being created: `.<id>.<pid>.<random>.creating`. */
export function creatingName(id: string, random: string): string {
  return `.${id}.${process.pid}.${random}.creating`;
}

function creatingOwnerPid(name: string): number | undefined {
  const m = /^\..+\.(\d+)\.[0-9a-f]+\.creating$/.exec(name);
  return m ? Number(m[1]) : undefined;
}
