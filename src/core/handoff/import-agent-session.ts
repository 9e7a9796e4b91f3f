import { ErrorCode } from '../../shared/error-codes.js';
import type { SessionDoc } from '../../shared/session.js';
import { sha256Hex } from '../hash.js';
import type { AgentSource } from '../importers/index.js';
import { planTranscript } from './transcript-source.js';
import { importedModel } from '../importers/imported-model.js';
import { importedPermission } from '../importers/imported-permission.js';
import type { SessionStore } from '../store/types.js';
import { landAndReadBack, type LandedSession } from './send.js';

export interface ImportResult {
  session: SessionDoc;
  /** False when this exact source state had been imported before (nothing new was written). */
  created: boolean;
  /** When created: what was landed, as read back (offerSession builds the manifest from it instead of parsing the log again). */
  landed?: LandedSession;
}

/** Length of the hash part of an imported session's id. */
const IMPORT_ID_HASH_CHARS = 32;

/** What every imported session's id starts with: a listing tells them from Baton's own sessions by it. */
export const IMPORTED_ID_PREFIX = 'imp-';

/**
 * The Baton session id of one source state (tool, session, last line): the same source at the
 * same last line always maps to the same session, so importing it again creates nothing new and
 * its handoff is answered `duplicate`.
 */
export function importedSessionId(fingerprint: string): string {
  return `${IMPORTED_ID_PREFIX}${sha256Hex(fingerprint).slice(0, IMPORT_ID_HASH_CHARS)}`;
}

/**
 * Converts a Claude Code or Codex session (read-only) into a Baton session, once per source state.
 * The transcript streams (transcript-source.ts): a first read plans (facts, the landing's scan,
 * the changes each message will get), the landing's read converts and lets each message go once
 * final; the messages are never held as one array.
 */
export async function importAgentSession(store: SessionStore, source: AgentSource, pathOrId: string, env: NodeJS.ProcessEnv = process.env): Promise<ImportResult> {
  const plan = await planTranscript(source, pathOrId, env);
  const imported = plan.facts;
  const id = importedSessionId(imported.fingerprint);
  const existing = await store.getSession(id).catch((error: { code?: string }) => {
    if (error.code === ErrorCode.NOT_FOUND) return null;
    throw error;
  });
  if (existing) return { session: existing, created: false };
  const landed = await landAndReadBack(store, {
    id,
    cwd: imported.cwd ?? process.cwd(),
    title: imported.title || `${source} session ${imported.externalId}`,
    messages: plan.source,
    scan: plan.scan,
    source: { tool: source, externalId: imported.externalId, path: imported.path, fingerprint: imported.fingerprint, clientVersion: imported.cliVersion ?? undefined },
    model: await importedModel(imported, env),
    permission: await importedPermission(imported, env),
    tasks: imported.tasks,
  });
  return { session: landed.session, created: true, landed };
}

/** Candidates not yet imported at their current state (an imported one is listed as its Baton session). */
export function notYetImported<T extends { fingerprint: string }>(candidates: readonly T[], sessionIds: ReadonlySet<string>): T[] {
  return candidates.filter((c) => !sessionIds.has(importedSessionId(c.fingerprint)));
}
