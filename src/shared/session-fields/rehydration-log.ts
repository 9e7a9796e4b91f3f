import { z } from 'zod';
import { RehydrationLogEntry } from '../workspace.js';

/** session.json's `rehydrationLog`: every confirmed rehydration step, oldest first. */
export const SessionRehydrationLog = z.array(RehydrationLogEntry).optional();
export type SessionRehydrationLog = NonNullable<z.infer<typeof SessionRehydrationLog>>;
