import { z } from 'zod';
import { builtOnFirstUse } from '../built-on-first-use.js';

/** Where a carried rule came from (for the session view and the rules artifact). */
export const PermissionSource = builtOnFirstUse(() => z.looseObject({
  kind: z.enum(['transcript', 'user-settings', 'project-settings', 'project-local-settings', 'turn-context', 'baton-grants']),
  /** The file read (read-only), when there is one. */
  path: z.string().optional(),
  /** How many rules it gave. */
  rules: z.number().int().nonnegative(),
}));
export type PermissionSource = z.infer<typeof PermissionSource>;

/** The permissions in force at this host after a handoff: narrowPermissions(source, host policy). */
export const PermissionInForce = builtOnFirstUse(() => z.looseObject({
  mode: z.string(),
  rules: z.array(z.string()),
  handoffId: z.string(),
  narrowedAt: z.string(),
  /** Grant rules revoked because the host policy does not cover them. */
  revokedGrants: z.array(z.string()),
}));
export type PermissionInForce = z.infer<typeof PermissionInForce>;

/**
 * session.json's `permission`: the permission state the session carries. `rules` are kept as
 * written (`allow:<rule>` / `deny:<rule>` / `root:<dir>` / `grant:<rule>`, see
 * src/core/policy/narrow.ts). `mode` is Baton's scale (plan < default < acceptEdits <
 * bypassPermissions); `sourceMode` is the tool's own words (Codex: `approval/sandbox`).
 */
export const PermissionState = builtOnFirstUse(() => z.looseObject({
  mode: z.string(),
  rules: z.array(z.string()).default([]),
  sourceTool: z.string().optional(),
  sourceMode: z.string().optional(),
  sources: z.array(PermissionSource).optional(),
  /** The rules artifact (artifacts/<sha256>.json) sent with the last handoff, and its hash. */
  rulesRef: z.string().optional(),
  rulesSha256: z.string().optional(),
  inForce: PermissionInForce.optional(),
}));
export type PermissionState = z.infer<typeof PermissionState>;

export const SessionPermission = builtOnFirstUse(() => PermissionState.nullable());
