import { join } from 'node:path';
import { isValidId } from '../../shared/ids.js';
import { StoreError } from './errors.js';

/** The data directory's encryption-at-rest settings (at-rest/at-rest-state.ts): present once the store is encrypted. */
export const ENCRYPTION_FILE = 'encryption.json';

/** Directories 0700 and files 0600: sessions hold code, prompts and tool output. */
export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

export const SESSIONS_DIR = 'sessions';
export const ARCHIVED_DIR = 'archived';
export const RECEIPTS_DIR = 'receipts';
/** hosted-handoffs/<sessionId>: the payload digest of a hosted handoff's request (src/core/handoff/hosted-handoff-key.ts). */
export const HOSTED_HANDOFFS_DIR = 'hosted-handoffs';
export const ARTIFACTS_DIR = 'artifacts';
export const EVENTS_FILE = 'events.jsonl';
export const HANDOFF_FILE = 'handoff.json';
export const HANDOFFS_FILE = 'handoffs.jsonl';

/** An id becomes a path component only after this check. */
export function checkId(id: unknown, what = 'session id'): string {
  if (!isValidId(id)) throw new StoreError('BAD_REQUEST', `Invalid ${what} ${JSON.stringify(String(id)).slice(0, 140)}: use letters, digits, '.', '_' and '-' only.`);
  return id;
}

export function liveDir(root: string, id: string): string {
  return join(root, SESSIONS_DIR, checkId(id));
}

export function archivedDir(root: string, id: string): string {
  return join(root, ARCHIVED_DIR, checkId(id));
}

/** A named artifact: a series written once per number (summary-03.md), checked against a hash the caller holds. */
export const NAMED_ARTIFACT = /^[a-z][a-z0-9]{0,31}-\d{2,6}\.[a-z0-9]{1,8}$/;

/** `name` as a named artifact's file name; BAD_REQUEST for anything else (a path, a hash name). */
export function namedArtifactName(name: string): string {
  if (!NAMED_ARTIFACT.test(name)) throw new StoreError('BAD_REQUEST', `Invalid artifact name ${JSON.stringify(name)}.`);
  return name;
}

/** `<sha256>.<ext>`: the name of a content-addressed artifact. */
export function artifactName(sha256: string, extension?: string): string {
  if (extension !== undefined && !/^[A-Za-z0-9]{1,16}$/.test(extension)) throw new StoreError('BAD_REQUEST', `Invalid artifact extension ${JSON.stringify(extension)}.`);
  return `${sha256}${extension ? `.${extension}` : ''}`;
}
