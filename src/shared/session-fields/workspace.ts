import type { z } from 'zod';
import { builtOnFirstUse } from '../built-on-first-use.js';
import { WorkspaceSnapshot } from '../workspace.js';

/**
 * session.json's `workspace`: the snapshot captured at the source (with its patch ref once the
 * patch is stored under artifacts/). Absent or null when the session was handed off without one.
 */
export const SessionWorkspace = builtOnFirstUse(() => WorkspaceSnapshot.nullable().optional());
export type SessionWorkspace = NonNullable<z.infer<typeof SessionWorkspace>>;
