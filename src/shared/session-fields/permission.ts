import { z } from 'zod';

/**
 * session.json's `permission`: the permission state the session carries. `rules` are kept as
 * written (`allow:<rule>` / `deny:<rule>`, see src/core/policy/narrow.ts); further fields
 * (source tool's own policy names, rules hash…) survive as unknown keys.
 */
export const PermissionState = z.looseObject({
  mode: z.string(),
  rules: z.array(z.string()).default([]),
});
export type PermissionState = z.infer<typeof PermissionState>;

export const SessionPermission = PermissionState.nullable();
