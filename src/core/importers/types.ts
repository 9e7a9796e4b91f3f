import type { SessionTaskSummary } from '../../shared/session-fields/tasks.js';
import type { PermissionState } from '../../shared/session-fields/permission.js';
import type { ModelSettings } from './model-settings.js';
import type { MessageInput } from '../../shared/message.js';

/** The terminal assistants Baton imports from. */
export type AgentSource = 'claude' | 'codex';
export const AGENT_SOURCES: readonly AgentSource[] = ['claude', 'codex'];

/** Where each tool keeps its sessions (see locate.ts). */
export interface AgentDirs {
  /** Claude Code config dir: $CLAUDE_CONFIG_DIR or ~/.claude; sessions under projects/<encoded-cwd>/. */
  claude: string;
  /** Codex home: $CODEX_HOME or ~/.codex; sessions under sessions/YYYY/MM/DD/. */
  codex: string;
}

/** One resume candidate in `baton list` and the UI, built from a bounded head + tail read. */
export interface ImportedCandidate {
  source: AgentSource;
  /** The tool's own session id (what `claude --resume` / `codex resume` take). */
  externalId: string;
  /** Absolute path of the source log (read-only). */
  path: string;
  /** First real user prompt, at most TITLE_MAX_CHARS; '' when none was found. */
  title: string;
  cwd: string | null;
  branch: string | null;
  /** ISO time of the last timestamp seen (file mtime when the log holds none). */
  updatedAt: string;
  /**
   * User prompts + assistant responses (one Claude API response = one message, however many
   * lines share its message.id; tool results and meta lines are not messages).
   */
  messageCount: number;
  /** False when the file was too large to read whole and the middle was estimated by density. */
  messageCountExact: boolean;
  model: string | null;
  cliVersion: string | null;
  /** Identifies this source state: see fingerprint.ts. Equal to readAgentSession's for the same state. */
  fingerprint: string;
  /** Why the candidate is incomplete (compressed, unreadable …). */
  note?: string;
  /** The exact command that resumes this session in its terminal tool (run it in `cwd`). */
  resumeCommand: string;
}

export interface ScanStats {
  /** Session files found (including ones that cannot be read). */
  files: number;
  /** Files read (fully or head + tail) in this scan. */
  parsed: number;
  /** Files answered from the cache without reading. */
  cached: number;
  /** Files left out of the candidates; see skippedReasons. */
  skipped: number;
  skippedReasons: Record<string, number>;
  /** Totals over all candidates (cached ones included): */
  tornLines: number;
  unknownTypes: number;
  danglingParents: number;
  compactions: number;
  /** Bytes read from source logs in this scan (cache hits read 0). */
  bytesRead: number;
  ms: number;
}

export interface ScanResult {
  candidates: ImportedCandidate[];
  stats: ScanStats;
}

/** Counters of a full conversion. */
export interface ReadStats {
  lines: number;
  tornLines: number;
  unknownTypes: number;
  /** Claude: parentUuid not found earlier in the file. */
  danglingParents: number;
  /** Tool results whose call was not found (kept as role "tool" messages). */
  danglingToolResults: number;
  compactions: number;
  /** Lines that are known but carry nothing Baton keeps (snapshots, progress, token counts …). */
  ignoredLines: number;
  /** Claude thinking blocks / Codex reasoning items. */
  reasoningSkipped: number;
  /** Claude sub-agent (sidechain) lines, which belong to a tool call, not the conversation. */
  sidechainLines: number;
  /** Claude meta / command / caveat lines and Codex environment or instruction messages. */
  metaLines: number;
}

/** A whole session converted for `baton handoff --from claude|codex`. */
export interface ImportedSession {
  source: AgentSource;
  externalId: string;
  path: string;
  cwd: string | null;
  branch: string | null;
  model: string | null;
  permissionMode: string | null;
  cliVersion: string | null;
  title: string;
  messages: MessageInput[];
  /** Background shells (Claude Code) or exec sessions still running (Codex) found in the log. */
  tasks: SessionTaskSummary[];
  /** Codex: the permission state of the last turn_context (Claude's is read with its settings files). */
  codexPermission: PermissionState | null;
  /** Codex: the model configuration of session_meta and the last turn_context (Claude's is read with its settings files). */
  codexModel: ModelSettings | null;
  fingerprint: string;
  resumeCommand: string;
  stats: ReadStats;
}

export function emptyReadStats(): ReadStats {
  return {
    lines: 0,
    tornLines: 0,
    unknownTypes: 0,
    danglingParents: 0,
    danglingToolResults: 0,
    compactions: 0,
    ignoredLines: 0,
    reasoningSkipped: 0,
    sidechainLines: 0,
    metaLines: 0,
  };
}

export function resumeCommandFor(source: AgentSource, externalId: string): string {
  return source === 'claude' ? `claude --resume ${externalId}` : `codex resume ${externalId}`;
}
