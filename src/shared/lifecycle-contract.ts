import { z } from 'zod';

/**
 * The UI channels of issue 21 (archive, delete, purge, retention), spread into uiChannels. The
 * shapes mirror src/core/lifecycle: the same plans the CLI prints in its confirmations.
 */
const Ids = z.array(z.string()).min(1).max(10_000);

export const DeletePlanView = z.object({
  sessionId: z.string(),
  title: z.string(),
  state: z.enum(['live', 'archived']),
  messageCount: z.number().int(),
  bytes: z.number().int(),
  receipts: z.number().int(),
  blockers: z.array(z.string()),
});
export type DeletePlanView = z.infer<typeof DeletePlanView>;

export const PurgeItemView = z.object({ kind: z.enum(['session', 'archived', 'receipts', 'events', 'cache', 'tasks', 'relay']), name: z.string(), title: z.string().optional(), bytes: z.number().int() });
export const PurgePlanView = z.object({ dataDir: z.string(), items: z.array(PurgeItemView), bytes: z.number().int(), kept: z.array(z.string()) });
export type PurgePlanView = z.infer<typeof PurgePlanView>;

const StateUsage = z.object({ sessions: z.number().int(), bytes: z.number().int() });
export const RetentionView = z.object({
  live: StateUsage,
  archived: StateUsage,
  largest: z.array(z.object({ id: z.string(), title: z.string(), state: z.enum(['live', 'archived']), bytes: z.number().int(), messageCount: z.number().int() })),
});
export type RetentionView = z.infer<typeof RetentionView>;

export const lifecycleChannels = {
  /** Archive (or bring back) one session or a whole directory group; never deletes anything. */
  'sessions:archive': { request: z.object({ ids: Ids }), response: z.object({ archived: z.array(z.string()) }) },
  'sessions:unarchive': { request: z.object({ ids: Ids }), response: z.object({ unarchived: z.array(z.string()) }) },
  /** What a delete would remove, for the confirmation that names it. */
  'sessions:delete-plan': { request: z.object({ ids: Ids }), response: z.array(DeletePlanView) },
  /** Only after that confirmation; a session in use is refused unless `force`. */
  'sessions:delete': {
    request: z.object({ ids: Ids, confirmed: z.literal(true), force: z.boolean().optional() }),
    response: z.object({ deleted: z.array(DeletePlanView), refused: z.array(z.object({ sessionId: z.string(), code: z.string(), message: z.string() })) }),
  },
  /** `baton purge --dry-run`: everything that would go, with sizes. */
  'data:purge-plan': { request: z.object({}), response: PurgePlanView },
  /** `baton purge --yes`, after the settings dialog's confirmation. */
  'data:purge': { request: z.object({ confirmed: z.literal(true) }), response: z.object({ removed: z.number().int(), bytes: z.number().int() }) },
  /** Disk use per state and the largest sessions (the stats panel, like `baton stats`). */
  'retention:get': { request: z.object({}), response: RetentionView },
} as const;
