import { join } from 'node:path';
import { SESSION_SCHEMA_VERSION, SessionDoc } from '../../shared/session.js';
import type { DurableFs, FileStat } from '../fs/durable-fs.js';
import { writeDurableTemp } from '../fs/write-file-atomic.js';
import { StoreError, errnoOf, fromFsError } from './errors.js';
import { migrateSessionDoc } from './migrations.js';
import { newestReadableRevision } from './restore-doc.js';
import { parseSessionDoc, safeParseSessionDoc } from './typed-fields.js';

/**
 * session.json with a lock-free compare-and-swap across processes. Publishing revision r + 1 first
 * hard-links the fully written, fsynced temp file to `session.rev-<r+1>.json`: link() fails when
 * that name exists, so exactly one writer wins each revision and the others get CONFLICT. The
 * winner then renames the temp over session.json. A reader that finds `session.rev-<r+1>.json`
 * next to a session.json at revision r (a writer stopped between link and rename) rolls forward to it.
 */
export const SESSION_FILE = 'session.json';
/** Revision markers older than the current one minus this many are removed. */
export const REVISION_MARKERS_KEPT = 64;

export function revisionMarker(dir: string, revision: number): string {
  return join(dir, `session.rev-${revision}.json`);
}

export interface LoadedDoc {
  doc: SessionDoc;
  /** Written by a newer Baton: readable, never rewritten. */
  newer: boolean;
  /** Version the file had on disk, before migration. */
  fromVersion: number;
  /** session.json itself was unreadable: this is the newest readable revision marker instead. */
  restored?: { from: string; revision: number; reason: string };
}

/** session.json exists but its content is not a session document (as opposed to an I/O error). */
class UnreadableContent extends StoreError {}

async function readJson(fs: DurableFs, path: string): Promise<Record<string, unknown> | undefined> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(path);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    // Encrypted at rest and failing authentication: damaged content (restored from a revision), not an I/O error.
    if (errnoOf(error) === 'EBADMSG') throw new UnreadableContent('IO_ERROR', (error as Error).message, path);
    throw fromFsError(error, path, 'reading session.json');
  }
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    /* reported below */
  }
  throw new UnreadableContent('IO_ERROR', `${path} is not valid JSON; restore it from a backup or remove the session directory.`, path);
}

/**
 * Reads session.json (rolling forward to a published revision marker) and migrates it. When its
 * content is unreadable, the newest readable revision marker stands in (`restored` says which).
 */
export async function readSessionDoc(fs: DurableFs, dir: string): Promise<LoadedDoc | undefined> {
  const path = join(dir, SESSION_FILE);
  try {
    const first = await readJson(fs, path);
    if (!first) return undefined;
    return await rollForwardAndParse(fs, dir, first, path);
  } catch (error) {
    if (!(error instanceof UnreadableContent)) throw error;
    const found = await newestReadableRevision(fs, dir, isSessionDoc).catch(() => undefined);
    if (!found) throw error;
    const loaded = await rollForwardAndParse(fs, dir, found.raw, join(dir, found.name));
    return { ...loaded, restored: { from: found.name, revision: found.revision, reason: error.message } };
  }
}

/** True when `raw` reads as a session document (after migration). */
export function isSessionDoc(raw: Record<string, unknown>): boolean {
  try {
    return parseSessionDoc(migrateSessionDoc(raw).doc).ok;
  } catch {
    return false;
  }
}

async function rollForwardAndParse(fs: DurableFs, dir: string, first: Record<string, unknown>, path: string): Promise<LoadedDoc> {
  let raw: Record<string, unknown> = first;
  for (;;) {
    const next: Record<string, unknown> | undefined = typeof raw.revision === 'number' ? await readJson(fs, revisionMarker(dir, raw.revision + 1)).catch(() => undefined) : undefined;
    if (!next) break;
    raw = next;
  }
  const { doc, from } = migrateSessionDoc(raw);
  const newer = from > SESSION_SCHEMA_VERSION;
  if (newer) {
    const parsed = safeParseSessionDoc(doc);
    return { doc: parsed.success ? parsed.data : (doc as SessionDoc), newer, fromVersion: from };
  }
  const parsed = parseSessionDoc(doc);
  if (!parsed.ok) throw new UnreadableContent('IO_ERROR', `${path} is not a valid session document (${parsed.issues}).`, path);
  return { doc: parsed.doc, newer, fromVersion: from };
}

/** Cheap identity of session.json for cache checks: a rename always gives a new inode. */
export async function docStamp(fs: DurableFs, dir: string): Promise<string | undefined> {
  let st: FileStat;
  try {
    st = await fs.stat(join(dir, SESSION_FILE));
  } catch {
    return undefined;
  }
  return `${st.ino}:${st.size}:${st.mtimeMs}`;
}

/**
 * Publishes `next` as revision expected + 1 if nobody else did: CONFLICT otherwise.
 * `next.revision` is set here.
 */
export async function commitSessionDoc(fs: DurableFs, dir: string, expectedRevision: number, next: SessionDoc, initial = false): Promise<SessionDoc> {
  const doc = { ...next, revision: initial ? expectedRevision : expectedRevision + 1 };
  const path = join(dir, SESSION_FILE);
  const marker = revisionMarker(dir, doc.revision);
  let temp: string;
  try {
    temp = await writeDurableTemp(path, `${JSON.stringify(doc, null, 2)}\n`, { fs });
  } catch (error) {
    throw fromFsError(error, path, 'writing session.json');
  }
  try {
    if (!initial && !(await buildsOnCurrent(fs, dir, expectedRevision))) throw conflict(path, expectedRevision);
    try {
      await fs.link(temp, marker);
    } catch (error) {
      if (errnoOf(error) === 'EEXIST') throw conflict(path, expectedRevision);
      throw fromFsError(error, marker, 'publishing a session revision');
    }
    await fs.rename(temp, path).catch((error: unknown) => {
      throw fromFsError(error, path, 'replacing session.json');
    });
    await fs.fsyncDir(dir).catch((error: unknown) => {
      throw fromFsError(error, dir, 'syncing the session directory');
    });
  } catch (error) {
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
  const old = doc.revision - REVISION_MARKERS_KEPT;
  if (old >= 0) await fs.unlink(revisionMarker(dir, old)).catch(() => undefined);
  return doc;
}

/**
 * Markers older than the kept window are deleted, so a very late writer could link a deleted
 * revision again; it may only build on revision e when marker e still exists or session.json is at e.
 */
async function buildsOnCurrent(fs: DurableFs, dir: string, expected: number): Promise<boolean> {
  if (await fs.stat(revisionMarker(dir, expected)).then(() => true, () => false)) return true;
  const raw = await readJson(fs, join(dir, SESSION_FILE)).catch(() => undefined);
  // A migrated version-0 document has no revision yet: it counts as revision 0.
  return raw !== undefined && (typeof raw.revision === 'number' ? raw.revision : 0) === expected;
}

function conflict(path: string, expected: number): StoreError {
  return new StoreError('CONFLICT', `session.json changed since revision ${expected} was read (${path}); read it again and retry.`, path);
}
