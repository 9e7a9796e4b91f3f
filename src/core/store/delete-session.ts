import { join } from 'node:path';
import { writeFileAtomic, type DurableFs } from '../fs/index.js';
import { errnoOf } from '../fs/errno.js';
import { StoreError } from './errors.js';
import { cleanTemps } from './housekeeping.js';
import { ARCHIVED_DIR, DIR_MODE, HOSTED_HANDOFFS_DIR, RECEIPTS_DIR, SESSIONS_DIR, archivedDir, checkId, liveDir } from './layout.js';

/**
 * Deleting a session, crash-safe (issue 21): a marker first (deleting/<id>.json, fsynced), then the
 * session's directory is renamed out of sessions/ (or archived/) in one step, then its receipts and
 * index row go, then its files, then the marker. A kill at any point leaves the session whole (no
 * marker yet) or a marker that finishPendingDeletes completes on the next open: never half a session.
 */
export const DELETING_DIR = 'deleting';

export interface DeleteMarker {
  v: 1;
  sessionId: string;
  /** Where the session was: 'sessions' or 'archived'. */
  from: typeof SESSIONS_DIR | typeof ARCHIVED_DIR;
  markedAt: string;
}

export interface DeleteSteps {
  fs: DurableFs;
  root: string;
  /** Drops the session's rows from index.json and its journal. */
  forgetIndexRows(ids: readonly string[]): Promise<void>;
}

const markerPath = (root: string, id: string): string => join(root, DELETING_DIR, `${id}.json`);
/** The renamed directory: out of sessions/, so no listing or lookup finds it any more. */
const trashPath = (root: string, id: string): string => join(root, DELETING_DIR, `${id}.trash`);

export async function deleteSessionFiles(steps: DeleteSteps, id: string): Promise<void> {
  const { fs, root } = steps;
  checkId(id);
  const from = fs.existsSync(liveDir(root, id)) ? SESSIONS_DIR : fs.existsSync(archivedDir(root, id)) ? ARCHIVED_DIR : undefined;
  if (!from) throw new StoreError('NOT_FOUND', `No session ${id} in ${root}.`, liveDir(root, id));
  await fs.mkdir(join(root, DELETING_DIR), DIR_MODE);
  const marker: DeleteMarker = { v: 1, sessionId: id, from, markedAt: new Date().toISOString() };
  await writeFileAtomic(markerPath(root, id), `${JSON.stringify(marker)}\n`, { fs, mode: 0o600 });
  await finishDelete(steps, marker);
}

/** The steps after the marker, each one idempotent, so a restart can run them all again. */
async function finishDelete(steps: DeleteSteps, marker: DeleteMarker): Promise<void> {
  const { fs, root } = steps;
  const id = marker.sessionId;
  const dir = join(root, marker.from, id);
  if (fs.existsSync(dir)) {
    await fs.rename(dir, trashPath(root, id));
    await fs.fsyncDir(join(root, marker.from));
    await fs.fsyncDir(join(root, DELETING_DIR));
  }
  await removeReceipts(fs, root, id);
  // A hosted handoff's request digest (derived from the session's content) goes with the session.
  await fs.unlink(join(root, HOSTED_HANDOFFS_DIR, id)).catch((error: unknown) => {
    if (errnoOf(error) !== 'ENOENT') throw error;
  });
  await steps.forgetIndexRows([id]);
  await fs.removeTree(trashPath(root, id));
  await fs.unlink(markerPath(root, id)).catch((error: unknown) => {
    if (errnoOf(error) !== 'ENOENT') throw error;
  });
  await fs.fsyncDir(join(root, DELETING_DIR));
}

/** receipts/<handoffId>.json that name the session (the idempotency answers of its handoffs). */
export async function receiptsOf(fs: DurableFs, root: string, id: string): Promise<string[]> {
  const dir = join(root, RECEIPTS_DIR);
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const out: string[] = [];
  for (const name of names) {
    if (!name.endsWith('.json') || name.startsWith('.')) continue;
    try {
      if ((JSON.parse((await fs.readFile(join(dir, name))).toString('utf8')) as { sessionId?: unknown }).sessionId === id) out.push(name);
    } catch {
      /* a damaged receipt names no session we can match; it stays */
    }
  }
  return out;
}

async function removeReceipts(fs: DurableFs, root: string, id: string): Promise<void> {
  const names = await receiptsOf(fs, root, id);
  for (const name of names) await fs.unlink(join(root, RECEIPTS_DIR, name)).catch(() => undefined);
  if (names.length > 0) await fs.fsyncDir(join(root, RECEIPTS_DIR));
}

/** Run when the store opens: completes every delete a crash interrupted. Returns the ids finished. */
export async function finishPendingDeletes(steps: DeleteSteps): Promise<string[]> {
  const { fs, root } = steps;
  let names: string[];
  try {
    names = await fs.readdir(join(root, DELETING_DIR));
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return [];
    throw error;
  }
  // A marker cut short by a kill is a temp file: no marker was written, so the session stays whole.
  await cleanTemps(fs, join(root, DELETING_DIR));
  const done: string[] = [];
  for (const name of names) {
    if (!name.endsWith('.json') || name.startsWith('.')) continue;
    let marker: DeleteMarker;
    try {
      marker = JSON.parse((await fs.readFile(join(root, DELETING_DIR, name))).toString('utf8')) as DeleteMarker;
      checkId(marker.sessionId);
      if (marker.from !== SESSIONS_DIR && marker.from !== ARCHIVED_DIR) throw new Error('bad marker');
    } catch {
      continue; // a marker is written atomically: one that does not parse is not ours
    }
    await finishDelete(steps, marker);
    done.push(marker.sessionId);
  }
  return done;
}
