import type { SessionLink } from '../../shared/approvals.js';
import type { SessionDoc } from '../../shared/session.js';
import type { SessionStore } from '../store/types.js';
import { bridgeSessionId } from './claude-hook.js';

/**
 * Which Baton session a request belongs to. Agents file requests under the id they know: a Baton
 * id (`--session`, `$BATON_SESSION_ID`) or their own session id (Claude Code's `session_id`, a
 * Codex thread id). When that agent session is opened in Baton, the imported session keeps the
 * source id as `source.externalId` (src/core/handoff/import-agent-session.ts), so the same request
 * is linked to it from then on, and the imported session's history shows what was asked before.
 */
export interface SessionLinker {
  /** The Baton session for a filed id (itself, or the newest import of that agent session). */
  resolve(filedId: string): Promise<{ link: SessionLink; doc: SessionDoc | null }>;
  /** The ids requests of a Baton session may be filed under: its own, and its agent's source id. */
  aliases(batonSessionId: string): Promise<string[]>;
}

const AGENT_SOURCES = new Set(['claude', 'codex']);

export function createSessionLinker(store: Pick<SessionStore, 'getSession' | 'list'>): SessionLinker {
  // A session's source never changes: remember each imported session's external id once.
  const externalIds = new Map<string, string | null>();

  async function docOf(id: string): Promise<SessionDoc | null> {
    try {
      return await store.getSession(id);
    } catch {
      return null; // not a Baton session (an agent's own id), or unreadable: no link
    }
  }

  async function importsOf(externalId: string): Promise<SessionDoc[]> {
    const rows = (await store.list()).filter((row) => AGENT_SOURCES.has(row.source));
    const found: SessionDoc[] = [];
    for (const row of rows) {
      let known = externalIds.get(row.id);
      let doc: SessionDoc | null = null;
      if (known === undefined) {
        doc = await docOf(row.id);
        const external = doc?.source.externalId;
        // Compared the way the bridge files it: an id the store cannot take is hashed the same way.
        known = external === undefined ? null : bridgeSessionId(external);
        externalIds.set(row.id, known);
      }
      if (known !== externalId) continue;
      doc ??= await docOf(row.id);
      if (doc) found.push(doc);
    }
    // The same agent session imported at two states: the newest import is the one people work in.
    return found.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }

  return {
    async resolve(filedId) {
      const own = await docOf(filedId);
      if (own) return { doc: own, link: { batonSessionId: own.id, title: own.title, source: own.source.tool } };
      const [imported] = await importsOf(filedId);
      if (imported) return { doc: imported, link: { batonSessionId: imported.id, title: imported.title, source: imported.source.tool } };
      return { doc: null, link: { batonSessionId: null, title: null, source: null } };
    },
    async aliases(batonSessionId) {
      const doc = await docOf(batonSessionId);
      const external = doc?.source.externalId;
      if (external === undefined || !AGENT_SOURCES.has(doc!.source.tool)) return [batonSessionId];
      const filed = bridgeSessionId(external);
      return filed === batonSessionId ? [batonSessionId] : [batonSessionId, filed];
    },
  };
}
