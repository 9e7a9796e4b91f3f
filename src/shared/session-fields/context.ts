import { z } from 'zod';
import { builtOnFirstUse } from '../built-on-first-use.js';

const Sha256 = builtOnFirstUse(() => z.string().regex(/^[0-9a-f]{64}$/));

/**
 * session.json's `context`: what the context transfer produced for this session at its latest
 * handoff (docs/context-transfer.md). Absent until a handoff computes it. The next handoff
 * extends the summary named here instead of reading the whole log again.
 */
export const SessionContext = builtOnFirstUse(() => z
  .looseObject({
    /** artifacts/summary-NN.md */
    compactedSummaryRef: z.string().nullable().optional(),
    compactedSummarySha256: Sha256.nullable().optional(),
    /** NN of the summary file. */
    summaryNumber: z.number().int().positive().optional(),
    /** The last message seq the summary has read. */
    summaryThroughSeq: z.number().int().optional(),
    anchorMessageIds: z.array(z.string()).optional(),
    tokenEstimate: z.number().int().nonnegative().nullable().optional(),
    /** How tokenEstimate was computed, e.g. "baton-runs-v1/claude". */
    tokenEstimateMethod: z.string().optional(),
  })
  .optional());
export type SessionContext = NonNullable<z.infer<typeof SessionContext>>;
