import { ErrorCode } from '../../shared/error-codes.js';
import type { MessageRecord } from '../../shared/message.js';
import { readAgentSession } from '../importers/read-session.js';
import { ImporterError } from '../importers/errors.js';
import type { AgentSource, ImportedCandidate } from '../importers/types.js';

/** Largest page of a candidate's conversation the preview answers. */
export const PREVIEW_PAGE_MAX = 200;

export interface PreviewRequest {
  source: AgentSource;
  path: string;
  /** The page ends before this message index (the newest page when absent). */
  beforeIndex?: number;
  limit: number;
}

export interface PreviewPage {
  messages: MessageRecord[];
  /** Messages in the whole conversation. */
  total: number;
}

/**
 * A read-only look at a Claude Code or Codex session that is not in Baton: its conversation,
 * converted by the same importer "Open in Baton" uses (bounded by the importer's size limit), one
 * page at a time, newest first. Only files of the resident candidate set are read (a request
 * cannot name any other file); the last conversation read is kept while its fingerprint holds, so
 * paging back does not convert the log again.
 */
export function createCandidatePreview({ find, env = process.env }: { find: (source: AgentSource, path: string) => ImportedCandidate | undefined; env?: NodeJS.ProcessEnv }) {
  let cached: { key: string; messages: MessageRecord[] } | null = null;

  const conversation = async (candidate: ImportedCandidate): Promise<MessageRecord[]> => {
    const key = `${candidate.source}\0${candidate.path}\0${candidate.fingerprint}`;
    if (cached?.key === key) return cached.messages;
    const session = await readAgentSession(candidate.source, candidate.path, env);
    // Seq is the message's place in the log (what the view keys and pages by); no stored id or crc exists yet.
    const messages = session.messages.map((m, seq): MessageRecord => ({ ...m, seq, id: m.id ?? `${candidate.externalId}-${seq}`, createdAt: m.createdAt ?? candidate.updatedAt, crc: '' }));
    cached = { key, messages };
    return messages;
  };

  return {
    async page({ source, path, beforeIndex, limit }: PreviewRequest): Promise<PreviewPage> {
      const candidate = find(source, path);
      if (candidate === undefined) throw new ImporterError(ErrorCode.NOT_FOUND, `No ${source} session at ${path} among the sessions Baton found; rescan and try again.`, path);
      const messages = await conversation(candidate);
      const end = Math.min(beforeIndex ?? messages.length, messages.length);
      return { messages: messages.slice(Math.max(0, end - Math.min(limit, PREVIEW_PAGE_MAX)), end), total: messages.length };
    },
  };
}
