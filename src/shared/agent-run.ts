import { z } from 'zod';

/**
 * Continuing a session in the desktop (issue 19): Baton runs the session's own agent headless,
 * resuming it by its own id, and streams what it does. Declared here because the core, both
 * hosts and the renderer share it.
 */

/** Longest follow-up a person can send in one go. */
export const PROMPT_MAX_CHARS = 100_000;
/** Events a run keeps for a window that opens the session mid-run; older ones are in the log. */
export const RUN_EVENTS_KEPT = 500;
/** Changed paths a run lists (the tree watcher's batches, accumulated); more are counted, not named. */
export const RUN_FILES_LISTED = 200;
/** Stderr lines kept for a failed run (the task keeps the same number). */
export const RUN_STDERR_LINES = 20;

export const AgentTool = z.enum(['claude', 'codex']);
export type AgentTool = z.infer<typeof AgentTool>;

/** One thing the agent did, as it arrives. A tool call is updated in place by its result. */
export const RunEvent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('started'), at: z.string(), pid: z.number().int(), command: z.string(), model: z.string().nullable() }),
  z.object({ kind: z.literal('text'), id: z.string(), text: z.string() }),
  z.object({ kind: z.literal('tool-call'), id: z.string(), name: z.string(), input: z.unknown() }),
  z.object({ kind: z.literal('tool-result'), id: z.string(), output: z.string(), isError: z.boolean() }),
  /** Files under the session's directory changed during the run (relative paths, all so far). */
  z.object({ kind: z.literal('files'), paths: z.array(z.string()), more: z.number().int().nonnegative() }),
  /** A line the parser could not read, or an error the agent reported. */
  z.object({ kind: z.literal('error'), message: z.string() }),
  z.object({ kind: z.literal('finished'), at: z.string(), exitCode: z.number().int().nullable(), signal: z.string().nullable(), state: z.enum(['completed', 'failed', 'stopped']), stderrTail: z.array(z.string()) }),
]);
export type RunEvent = z.infer<typeof RunEvent>;

export const RunState = z.enum(['running', 'stopping', 'completed', 'failed', 'stopped']);
export type RunState = z.infer<typeof RunState>;

export const RunView = z.object({
  runId: z.string(),
  sessionId: z.string(),
  taskId: z.string(),
  tool: AgentTool,
  prompt: z.string(),
  model: z.string().nullable(),
  state: RunState,
  events: z.array(RunEvent),
});
export type RunView = z.infer<typeof RunView>;

/** Whether the composer is on for a session, and why not when it is off. */
export const ComposerStatus = z.object({
  available: z.boolean(),
  tool: AgentTool.nullable(),
  /** Why the composer is off (a Baton-native session, a tool not installed …). */
  reason: z.string().nullable(),
  /** The model the run uses unless the person picks another; shown, never silent. */
  model: z.string().nullable(),
  /** Models the tool accepts by alias (the recorded one first). */
  models: z.array(z.string()),
  /** What approvals go through, said plainly (Codex exec cannot ask: the documented gap). */
  approvals: z.string(),
  run: RunView.nullable(),
  /** A follow-up sent while a run was going, run next. */
  queued: z.string().nullable(),
});
export type ComposerStatus = z.infer<typeof ComposerStatus>;

export const SendRequest = z.object({
  sessionId: z.string(),
  prompt: z.string().trim().min(1).max(PROMPT_MAX_CHARS),
  model: z.string().max(200).optional(),
});
