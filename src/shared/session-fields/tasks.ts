import { z } from 'zod';
import { builtOnFirstUse } from '../built-on-first-use.js';

/**
 * session.json's `tasks`: summaries of the session's background tasks as last known (the live
 * records of registered tasks are under <dataDir>/tasks/). Absent when the session never had any.
 * `origin` says where a task was found: registered with Baton, or read from a Claude Code
 * transcript (a background shell) or a Codex rollout (an exec session still running).
 */
export const SessionTaskSummary = builtOnFirstUse(() => z.looseObject({
  id: z.string(),
  kind: z.string(),
  command: z.string(),
  pid: z.number().int().nullable().optional(),
  port: z.number().int().nullable().optional(),
  log: z.string().nullable().optional(),
  recoverable: z.boolean().optional(),
  state: z.string(),
  origin: z.enum(['baton', 'claude', 'codex']).optional(),
  /** The directory the command ran in, for the exact restart command. */
  cwd: z.string().optional(),
  /** What the transcript says about it later (kill / output calls), newest last. */
  notes: z.array(z.string()).optional(),
}));
export type SessionTaskSummary = z.infer<typeof SessionTaskSummary>;

export const SessionTasks = builtOnFirstUse(() => z.array(SessionTaskSummary).optional());
