import { z } from 'zod';
import { builtOnFirstUse } from './built-on-first-use.js';
import { SessionContext } from './session-fields/context.js';
import { SessionPermission } from './session-fields/permission.js';
import { SessionRedactions } from './session-fields/redactions.js';
import { SessionRehydrationLog } from './session-fields/rehydration-log.js';
import { SessionTasks } from './session-fields/tasks.js';
import { SessionWorkspace } from './session-fields/workspace.js';

/** Major version of session.json and index.json; a newer major opens read-only. */
export const SESSION_SCHEMA_VERSION = 1;

export const SourceTool = builtOnFirstUse(() => z.enum(['baton', 'claude', 'codex', 'other']));
export type SourceTool = z.infer<typeof SourceTool>;

export const Holder = builtOnFirstUse(() => z.looseObject({
  /** Who writes the session now: "terminal", "desktop", or a client name. */
  who: z.string().min(1),
  /** Fencing token: bumped on every claim; writes stamped with an older epoch are refused. */
  epoch: z.number().int().nonnegative(),
  /** The handoff that gave this holder the baton, so a retried handoff does not claim twice. */
  handoffId: z.string().optional(),
}));
export type Holder = z.infer<typeof Holder>;

export const SessionSource = builtOnFirstUse(() => z.looseObject({
  tool: SourceTool,
  /** The session id in the source tool (Claude Code / Codex), when imported. */
  externalId: z.string().optional(),
  /** The source file, when imported (read-only reference). */
  path: z.string().optional(),
  /** Identifies the source state that was imported, so the same state is recognised again. */
  fingerprint: z.string().optional(),
  clientVersion: z.string().optional(),
}));
export type SessionSource = z.infer<typeof SessionSource>;

export { PermissionState } from './session-fields/permission.js';

export const ModelConfig = builtOnFirstUse(() => z.looseObject({
  name: z.string(),
  /** The listed keys only (src/core/importers/model-settings.ts), redacted; instructions by path and hash. */
  settings: z.record(z.string(), z.unknown()).optional(),
  /** The artifact the last handoff carried the settings in, and its sha256 (manifest `model.settings_ref`). */
  settingsRef: z.string().optional(),
  settingsSha256: z.string().optional(),
}));

export const Damage = builtOnFirstUse(() => z.looseObject({
  reason: z.string(),
  /** Side file under the session directory that holds the quarantined bytes. */
  sideFile: z.string(),
  detectedAt: z.string(),
  /** The damaged byte range of the log (start inclusive, end exclusive), when known. */
  file: z.string().optional(),
  start: z.number().int().nonnegative().optional(),
  end: z.number().int().nonnegative().optional(),
}));
export type Damage = z.infer<typeof Damage>;

/** session.json */
export const SessionDoc = builtOnFirstUse(() => z.looseObject({
  schemaVersion: z.number().int().positive(),
  id: z.string(),
  parentId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  cwd: z.string(),
  gitRoot: z.string().nullable(),
  branch: z.string().nullable(),
  title: z.string(),
  source: SessionSource,
  model: ModelConfig.nullable(),
  permission: SessionPermission,
  holder: Holder,
  /** Compare-and-swap counter for session.json updates. */
  revision: z.number().int().nonnegative(),
  messageCount: z.number().int().nonnegative(),
  archived: z.boolean(),
  damaged: z.array(Damage).optional(),
  /** Notes about how the store repaired this session (restored from a revision, folded duplicates…). */
  notes: z.array(z.string()).optional(),
  workspace: SessionWorkspace,
  redactions: SessionRedactions,
  rehydrationLog: SessionRehydrationLog,
  tasks: SessionTasks,
  context: SessionContext,
}));
export type SessionDoc = z.infer<typeof SessionDoc>;

/** One row of index.json: everything the resume-candidate list needs, nothing from messages.jsonl. */
export const IndexRow = builtOnFirstUse(() => z.looseObject({
  id: z.string(),
  cwd: z.string(),
  gitRoot: z.string().nullable(),
  branch: z.string().nullable(),
  title: z.string(),
  updatedAt: z.string(),
  messageCount: z.number().int().nonnegative(),
  source: SourceTool,
  holder: Holder,
  parentId: z.string().nullable(),
  archived: z.boolean(),
  damaged: z.boolean().optional(),
}));
export type IndexRow = z.infer<typeof IndexRow>;

export function indexRowOf(doc: SessionDoc): IndexRow {
  return {
    id: doc.id,
    cwd: doc.cwd,
    gitRoot: doc.gitRoot,
    branch: doc.branch,
    title: doc.title,
    updatedAt: doc.updatedAt,
    messageCount: doc.messageCount,
    source: doc.source.tool,
    holder: doc.holder,
    parentId: doc.parentId,
    archived: doc.archived,
    damaged: (doc.damaged?.length ?? 0) > 0,
  };
}
