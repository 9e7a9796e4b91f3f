import { SessionDoc } from '../../shared/session.js';
import { tieredSafeParse } from '../../shared/tiered-parse.js';

/** SessionDoc.safeParse for the store: a process that parses a few documents (a CLI) does not pay zod's compile. */
export const safeParseSessionDoc = tieredSafeParse(SessionDoc);

/**
 * session.json fields that were free-form before SessionDoc declared them. A value written then
 * that does not match today's schema must not make the whole session unreadable, nor be dropped:
 * it is set aside under `unreadableFields.<name>` with a note, and the typed field starts empty.
 */
const SET_ASIDE_EMPTY: Record<string, unknown> = {
  workspace: undefined,
  redactions: undefined,
  rehydrationLog: undefined,
  tasks: undefined,
  context: undefined,
  permission: null,
};
export const UNREADABLE_FIELDS = 'unreadableFields';

export type DocParse = { ok: true; doc: SessionDoc } | { ok: false; issues: string };

/** Zod issues as one sentence fragment: `path: message; …`. */
export function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ');
}

/** Parses a session document, setting aside typed fields whose old values do not fit; an error names every issue. */
export function parseSessionDoc(raw: Record<string, unknown>, now: () => Date = () => new Date()): DocParse {
  const first = safeParseSessionDoc(raw);
  if (first.success) return { ok: true, doc: first.data };
  const fields = new Set(first.error.issues.map((i) => String(i.path[0] ?? '')).filter((f) => f in SET_ASIDE_EMPTY));
  if (fields.size === 0) return { ok: false, issues: describeIssues(first.error.issues) };
  const aside = { ...((raw[UNREADABLE_FIELDS] as Record<string, unknown> | undefined) ?? {}) };
  const notes = Array.isArray(raw.notes) ? [...(raw.notes as unknown[])] : [];
  const next: Record<string, unknown> = { ...raw };
  for (const field of fields) {
    aside[field] = raw[field];
    next[field] = SET_ASIDE_EMPTY[field];
    const why = describeIssues(first.error.issues.filter((i) => i.path[0] === field).slice(0, 3));
    notes.push(`${now().toISOString()}: session.json's "${field}" did not match its schema (${why}); it was kept unchanged under ${UNREADABLE_FIELDS}.${field}.`);
  }
  next[UNREADABLE_FIELDS] = aside;
  next.notes = notes;
  const second = safeParseSessionDoc(next);
  return second.success ? { ok: true, doc: second.data } : { ok: false, issues: describeIssues(second.error.issues) };
}
