import type { SessionLink } from '../../../../shared/approvals';
import type { IndexRow } from '../../../../shared/session';

/** Where a request's "Session" fact points: a title to read and the row to open. */
export interface RequestSession {
  title: string;
  /** The sidebar row to open: a Baton session id, or `claude:<id>` / `codex:<id>` for an agent session not yet in Baton; null when none is known. */
  rowId: string | null;
  /** What the title is: Baton's session, an agent session found on disk, or only the id the agent sent. */
  kind: 'baton' | 'agent' | 'unknown';
}

/** Ids are long; a person recognises the first characters. */
export const SHORT_ID_CHARS = 8;

/**
 * The session a request belongs to, by title. Requests are filed under the id the agent sent: a
 * Baton id, or a Claude Code / Codex session id. The host links the latter to the Baton session it
 * was imported as (`view.link`); before that, the agent session is a candidate row in the sidebar
 * (`claude:<id>`), so the request still opens it.
 */
export function requestSession(filed: { sessionId: string; link?: SessionLink | undefined; client?: string | undefined }, rows: readonly IndexRow[]): RequestSession {
  const byId = (id: string) => rows.find((row) => row.id === id);
  const linked = filed.link?.batonSessionId ?? null;
  if (linked !== null) {
    const title = filed.link?.title ?? byId(linked)?.title ?? '';
    return { title: title.length > 0 ? title : `Session ${linked.slice(0, SHORT_ID_CHARS)}`, rowId: linked, kind: 'baton' };
  }
  const id = filed.sessionId;
  const own = byId(id);
  if (own !== undefined) return { title: own.title || `Session ${id.slice(0, SHORT_ID_CHARS)}`, rowId: own.id, kind: 'baton' };
  const candidate = byId(`claude:${id}`) ?? byId(`codex:${id}`);
  if (candidate !== undefined) return { title: candidate.title, rowId: candidate.id, kind: 'agent' };
  return { title: `${filed.client ?? 'Agent'} session ${id.slice(0, SHORT_ID_CHARS)}…`, rowId: null, kind: 'unknown' };
}
