import { z } from 'zod';
import { SessionTaskSummary } from './session-fields/tasks.js';

/**
 * What the target shows for each task a handed-off session carries. `shownState` is never
 * `running` unless this host saw the process alive: a registered task whose process is gone is
 * `stale`; a task from a transcript (no pid) last seen running is `unverified`.
 */
export const CarriedTaskState = z.enum(['running', 'stale', 'orphaned', 'unverified', 'completed', 'failed', 'killed', 'exited']);
export type CarriedTaskState = z.infer<typeof CarriedTaskState>;

export const CarriedTaskView = z.object({
  task: SessionTaskSummary,
  shownState: CarriedTaskState,
  processAlive: z.boolean().nullable(),
  /** True when Baton knows the process (registered, pid checked) and can stop it here. */
  canTerminate: z.boolean(),
  recommendation: z.object({
    actions: z.array(z.enum(['terminate', 'restart', 'keep'])),
    prompt: z.string(),
    /** The exact command to start it again on this machine (in its directory), or null when finished. */
    restartCommand: z.string().nullable(),
  }),
});
export type CarriedTaskView = z.infer<typeof CarriedTaskView>;
