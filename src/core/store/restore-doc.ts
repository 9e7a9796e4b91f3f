import { join } from 'node:path';
import type { DurableFs } from '../fs/durable-fs.js';
import { createFileAtomic } from '../fs/write-file-atomic.js';
import { errnoOf } from './errors.js';
import { bytesOnDisk } from './at-rest/index.js';

/** `session.rev-<n>.json`: the revision markers commitSessionDoc publishes (see session-doc-file.ts). */
const MARKER = /^session\.rev-(\d+)\.json$/;

export interface Revision {
  name: string;
  revision: number;
  raw: Record<string, unknown>;
}

/** Revision markers in the session directory, newest first. */
export async function revisionMarkers(fs: DurableFs, dir: string): Promise<Array<{ name: string; revision: number }>> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return [];
    throw error;
  }
  return names
    .map((name) => ({ name, m: MARKER.exec(name) }))
    .filter((x): x is { name: string; m: RegExpExecArray } => x.m !== null)
    .map(({ name, m }) => ({ name, revision: Number(m[1]) }))
    .sort((a, b) => b.revision - a.revision);
}

/**
 * The newest revision marker that `accept` takes (parses as a session document). session.json is
 * a hard link of its own marker, so damage written into it in place damages that marker too: the
 * newest readable one may be older than session.json was.
 */
export async function newestReadableRevision(fs: DurableFs, dir: string, accept: (raw: Record<string, unknown>) => boolean): Promise<Revision | undefined> {
  for (const { name, revision } of await revisionMarkers(fs, dir)) {
    let raw: unknown;
    try {
      raw = JSON.parse((await fs.readFile(join(dir, name))).toString('utf8'));
    } catch {
      continue;
    }
    if (raw && typeof raw === 'object' && !Array.isArray(raw) && accept(raw as Record<string, unknown>)) return { name, revision, raw: raw as Record<string, unknown> };
  }
  return undefined;
}

/**
 * Makes room to publish revision `revision + 1` over an unreadable session.json: its bytes are
 * copied to `keptAs` (nothing is cut), and every marker above `revision` (unreadable, or it would
 * have been chosen) is renamed aside so the link of the next revision can succeed. Each is checked
 * still unreadable just before it moves, so a concurrent restorer's good revision is never moved.
 */
export async function restoreDocFiles(fs: DurableFs, dir: string, revision: number, keptAs: string, accept: (raw: Record<string, unknown>) => boolean): Promise<void> {
  const unreadable = async (path: string): Promise<boolean> => {
    try {
      const value: unknown = JSON.parse((await fs.readFile(path)).toString('utf8'));
      return !(value && typeof value === 'object' && !Array.isArray(value) && accept(value as Record<string, unknown>));
    } catch (error) {
      return errnoOf(error) !== 'ENOENT';
    }
  };
  const sessionJson = join(dir, 'session.json');
  if (await unreadable(sessionJson)) {
    // As on disk: a sealed file that failed authentication is kept as it is, not lost.
    const bytes = await bytesOnDisk(fs, sessionJson).catch(() => undefined);
    if (bytes) await createFileAtomic(join(dir, keptAs), bytes, { fs });
  }
  for (const marker of await revisionMarkers(fs, dir)) {
    if (marker.revision <= revision) break;
    const path = join(dir, marker.name);
    if (await unreadable(path)) await fs.rename(path, join(dir, `${marker.name}.unreadable`)).catch(() => undefined);
  }
  await fs.fsyncDir(dir);
}
