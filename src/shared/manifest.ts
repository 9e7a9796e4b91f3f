import { z } from 'zod';
import { builtOnFirstUse } from './built-on-first-use.js';
import { isValidId } from './ids.js';

/** The handoff manifest (ARCHITECTURE.md §5): hashes and references only, never contents or credentials. */
/**
 * MAJOR.MINOR (docs/manifest.md): a new optional field is a minor step (a receiver that does not
 * know it keeps it and verifies without it); a field whose absence would mislead is a major one.
 * 1.1 (issue 17): log_stored_bytes, log_stored_sha256 and full_outputs.
 */
export const MANIFEST_PROTOCOL_VERSION = '1.1';
/** Trimmed outputs listed in full_outputs at most; a session with more is verified by reading its records. */
export const MANIFEST_FULL_OUTPUTS_MAX = 500;

const Id = builtOnFirstUse(() => z.string().refine(isValidId, { message: 'not a valid id (letters, digits, . _ -; at most 128)' }));
const Sha256 = builtOnFirstUse(() => z.string().regex(/^[0-9a-f]{64}$/, 'expected a lowercase hex sha256'));

export const Capability = builtOnFirstUse(() => z.enum(['conversation', 'diff-viewer', 'approval-ui', 'task-panel', 'file-watcher']));
export type Capability = z.infer<typeof Capability>;

export const ManifestGit = builtOnFirstUse(() => z.looseObject({
  remote: z.string().nullable(),
  branch: z.string().nullable(),
  head: z.string().nullable(),
  dirty_files: z.array(z.string()),
  untracked_files: z.array(z.string()),
  diff_sha256: Sha256.nullable(),
  patch_ref: z.string().nullable(),
}));

export const ManifestWorkspace = builtOnFirstUse(() => z.looseObject({
  root: z.string(),
  git: ManifestGit.nullable(),
  requires_rehydration: z.boolean(),
}));

export const ManifestContext = builtOnFirstUse(() => z.looseObject({
  message_count: z.number().int().nonnegative(),
  messages_sha256: Sha256,
  tool_calls_count: z.number().int().nonnegative(),
  tool_calls_sha256: Sha256,
  anchor_message_ids: z.array(z.string()),
  compacted_summary_ref: z.string().nullable(),
  /** sha256 of the summary artifact, checked at the target (docs/context-transfer.md). */
  compacted_summary_sha256: Sha256.nullable().optional(),
  token_estimate: z.number().int().nonnegative(),
  /** How token_estimate was computed, e.g. "baton-runs-v1/claude". */
  token_estimate_method: z.string().optional(),
  /**
   * The first log_bytes bytes of messages.jsonl and their sha256, as the sender read them back
   * after landing: the target hashes those bytes instead of parsing the log again (issue 20).
   */
  log_bytes: z.number().int().nonnegative().optional(),
  log_sha256: Sha256.optional(),
  /**
   * messages.jsonl as stored when it is encrypted at rest (ciphertext), whole, hashed in the same
   * read-back pass (1.1, issue 17). A receiver whose store holds the very same bytes (a local
   * handoff) hashes them without decrypting; where they differ (another key: relay, ssh, bundles)
   * it falls back to log_sha256 over the opened records.
   */
  log_stored_bytes: z.number().int().nonnegative().optional(),
  log_stored_sha256: Sha256.optional(),
  /** Every trimmed output's artifact the records name (ref and sha256), sent with log_stored_*: the stored-bytes check cannot read them from ciphertext. */
  full_outputs: z.array(z.looseObject({ ref: z.string().regex(/^artifacts\/[0-9a-f]{64}\.txt$/, 'expected artifacts/<sha256>.txt'), sha256: Sha256 })).max(MANIFEST_FULL_OUTPUTS_MAX).optional(),
}));

export const ManifestTask = builtOnFirstUse(() => z.looseObject({
  id: z.string(),
  kind: z.string(),
  command: z.string(),
  port: z.number().int().nullable(),
  pid: z.number().int().nullable(),
  log_ref: z.string().nullable(),
  lease_expires_at: z.string().nullable(),
  recoverable: z.boolean(),
}));

export const Manifest = builtOnFirstUse(() => z.looseObject({
  protocol_version: z.string().regex(/^\d+\.\d+$/, 'expected MAJOR.MINOR'),
  handoff_id: Id,
  session_id: Id,
  parent_session_id: Id.nullable(),
  created_at: z.string(),
  origin: z.looseObject({
    client: z.string(),
    client_version: z.string(),
    host: z.string(),
    pid: z.number().int(),
  }),
  title: z.string().optional(),
  workspace: ManifestWorkspace,
  context: ManifestContext,
  capabilities_required: z.array(z.string()),
  background_tasks: z.array(ManifestTask),
  permission_state: z.looseObject({ mode: z.string(), rules_sha256: Sha256.nullable() }),
  model: z
    .looseObject({
      name: z.string(),
      settings_ref: z.string().nullable(),
      /** sha256 of the model settings artifact, checked at the target (manifest-model.ts). */
      settings_sha256: Sha256.nullable().optional(),
    })
    .nullable(),
}));
export type Manifest = z.infer<typeof Manifest>;

/** Readable one-line summary of every failing path, for error answers. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 8)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}
