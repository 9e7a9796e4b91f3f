import { z } from 'zod';
import { builtOnFirstUse } from '../built-on-first-use.js';
import { RehydrationLogEntry } from '../workspace.js';

/** session.json's `rehydrationLog`: every confirmed rehydration step, oldest first. */
export const SessionRehydrationLog = builtOnFirstUse(() => z.array(RehydrationLogEntry).optional());
export type SessionRehydrationLog = NonNullable<z.infer<typeof SessionRehydrationLog>>;
