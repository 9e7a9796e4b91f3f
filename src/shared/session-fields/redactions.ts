import { z } from 'zod';
import { builtOnFirstUse } from '../built-on-first-use.js';

/**
 * session.json's `redactions`: what the redaction pass removed before the messages were written,
 * as pattern name → count (never the removed text). Absent when nothing was removed.
 */
export const SessionRedactions = builtOnFirstUse(() => z.record(z.string(), z.number().int().nonnegative()).optional());
export type SessionRedactions = NonNullable<z.infer<typeof SessionRedactions>>;
