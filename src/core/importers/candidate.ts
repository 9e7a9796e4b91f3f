import { basename } from 'node:path';
import { claudeIdFromFile } from './claude-format.js';
import { codexIdFromFile } from './codex-format.js';
import { messagesOf } from './digest.js';
import { sourceFingerprint } from './fingerprint.js';
import type { FileState } from './summarize-file.js';
import { resumeCommandFor, type AgentSource, type ImportedCandidate } from './types.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The id the tool resumes by. Claude Code looks sessions up by file name (<session-id>.jsonl), so
 * a UUID file name wins over the sessionId inside (they differ in logs continued from another
 * session); a renamed copy falls back to the sessionId of its lines.
 */
export function externalIdFor(source: AgentSource, path: string, fromLog: string | null): string {
  if (source === 'claude') {
    const fromName = claudeIdFromFile(basename(path));
    return UUID.test(fromName) ? fromName : (fromLog ?? fromName);
  }
  return fromLog ?? codexIdFromFile(basename(path));
}

export function candidateFromState(source: AgentSource, path: string, state: FileState): ImportedCandidate {
  const d = state.digest;
  const externalId = externalIdFor(source, path, d.externalId);
  const candidate: ImportedCandidate = {
    source,
    externalId,
    path,
    title: d.title,
    cwd: d.cwd,
    branch: d.branch,
    updatedAt: d.updatedAt ?? new Date(state.mtimeMs).toISOString(),
    messageCount: messagesOf(d),
    messageCountExact: state.exact,
    model: d.model,
    cliVersion: d.cliVersion,
    fingerprint: state.fingerprint,
    resumeCommand: resumeCommandFor(source, externalId),
  };
  if (d.tornTail) candidate.note = 'The last line is incomplete (being written, or torn); it is not counted.';
  return candidate;
}

/** A file that is listed but not read: compressed, or unreadable. */
export function candidateWithNote(source: AgentSource, path: string, stat: { size: number; mtimeMs: number } | null, note: string): ImportedCandidate {
  const externalId = externalIdFor(source, path, null);
  return {
    source,
    externalId,
    path,
    title: '',
    cwd: null,
    branch: null,
    updatedAt: new Date(stat?.mtimeMs ?? 0).toISOString(),
    messageCount: 0,
    messageCountExact: false,
    model: null,
    cliVersion: null,
    fingerprint: sourceFingerprint(source, path, stat?.size ?? 0, `unread:${stat?.mtimeMs ?? 0}`),
    note,
    resumeCommand: resumeCommandFor(source, externalId),
  };
}

export const ZST_NOTE =
  'Compressed rollout (.jsonl.zst): Baton cannot read zstd here, so title, cwd and counts are unknown. `codex resume` still works; decompress it (zstd -d) to import it.';
