import { z } from 'zod';

/**
 * session.json's `context`: what the context transfer produced for this session (summary ref,
 * anchors, token estimate…). Absent until a handoff computes it.
 */
export const SessionContext = z
  .looseObject({
    compactedSummaryRef: z.string().nullable().optional(),
    tokenEstimate: z.number().int().nonnegative().nullable().optional(),
  })
  .optional();
export type SessionContext = NonNullable<z.infer<typeof SessionContext>>;
