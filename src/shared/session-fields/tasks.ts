import { z } from 'zod';

/**
 * session.json's `tasks`: summaries of the session's background tasks as last known (the live
 * records are under <dataDir>/tasks/). Absent when the session never had any.
 */
export const SessionTaskSummary = z.looseObject({
  id: z.string(),
  kind: z.string(),
  command: z.string(),
  pid: z.number().int().nullable().optional(),
  port: z.number().int().nullable().optional(),
  log: z.string().nullable().optional(),
  recoverable: z.boolean().optional(),
  state: z.string(),
});
export type SessionTaskSummary = z.infer<typeof SessionTaskSummary>;

export const SessionTasks = z.array(SessionTaskSummary).optional();
