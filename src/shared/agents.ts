import { z } from 'zod';
import { builtOnFirstUse } from './built-on-first-use.js';
import type { IndexRow } from './session.js';

/** A Claude Code or Codex CLI session found on disk (read-only), as the UI lists it. */
export const AgentCandidate = builtOnFirstUse(() => z.object({
  source: z.enum(['claude', 'codex']),
  externalId: z.string(),
  path: z.string(),
  title: z.string(),
  cwd: z.string().nullable(),
  branch: z.string().nullable(),
  updatedAt: z.string(),
  messageCount: z.number().int().nonnegative(),
  messageCountExact: z.boolean(),
  model: z.string().nullable(),
  cliVersion: z.string().nullable(),
  fingerprint: z.string(),
  note: z.string().optional(),
  resumeCommand: z.string(),
}));
export type AgentCandidate = z.infer<typeof AgentCandidate>;

/** Candidates in the UI's first answer: the newest, enough for a first screen (issue 15). */
export const AGENT_FIRST_PAGE = 200;
/** Candidates per later answer while the UI streams in the rest. */
export const AGENT_PAGE_SIZE = 5_000;
/** The most one page may ask for. */
export const AGENT_PAGE_MAX = 20_000;

/** A page of the host's candidates, newest first: all of them when no limit is asked. */
export const AgentListRequest = builtOnFirstUse(() => z.object({
  offset: z.number().int().nonnegative().optional(),
  limit: z.number().int().min(1).max(AGENT_PAGE_MAX).optional(),
}));

export const AgentScan = builtOnFirstUse(() => z.object({
  candidates: z.array(AgentCandidate),
  stats: z.object({ files: z.number(), ms: z.number() }),
  /** Candidates in all (the page may hold fewer): the UI counts them from its first answer. */
  total: z.number().int().nonnegative().optional(),
  /** Changes whenever the set does: pages of different versions are not mixed. */
  version: z.string().optional(),
  /** The host's first scan is still reading files: these are the rows so far (agents:changed follows). */
  scanning: z.boolean().optional(),
}));
export type AgentScan = z.infer<typeof AgentScan>;

/** "Continue in terminal": the exact command, where to run it, and what to do if that place is gone. */
export const TerminalCommand = builtOnFirstUse(() => z.object({
  tool: z.enum(['claude', 'codex', 'baton']),
  /** The command alone (run it in `cwd`). */
  command: z.string(),
  cwd: z.string(),
  cwdExists: z.boolean(),
  /** A directory that looks like the moved workspace (same repository remote and root name), when cwd is gone. */
  movedTo: z.string().nullable(),
  /** `cd <dir> && <command>`, quoted for a POSIX shell: what "Copy" puts on the clipboard. */
  shellLine: z.string(),
  /**
   * The ssh destination when the session came through `baton ssh` (issue 22): shellLine is then
   * `ssh HOST -t 'cd … && …'`, and `movedTo` is a clone of the same repository on this machine, if any.
   */
  sshHost: z.string().nullable().optional(),
}));
export type TerminalCommand = z.infer<typeof TerminalCommand>;

/** Quotes one word for a POSIX shell (single quotes; a single quote becomes '\''). */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:@%+=-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Where a candidate whose log names no working directory is grouped. */
export const UNKNOWN_CWD = '(unknown directory)';

/**
 * A candidate as a resume-candidate row, so Baton sessions and terminal-tool sessions group and
 * sort together. Its id is prefixed with the tool so it can never collide with a Baton id.
 */
export function candidateRow(candidate: AgentCandidate): IndexRow {
  return {
    id: `${candidate.source}:${candidate.externalId}`,
    cwd: candidate.cwd ?? UNKNOWN_CWD,
    gitRoot: null,
    branch: candidate.branch,
    title: candidate.title || `${candidate.source} session ${candidate.externalId}`,
    updatedAt: candidate.updatedAt,
    messageCount: candidate.messageCount,
    source: candidate.source,
    holder: { who: candidate.source, epoch: 0 },
    parentId: null,
    archived: false,
  };
}
