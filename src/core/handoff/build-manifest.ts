import { hostname } from 'node:os';
import { MANIFEST_FULL_OUTPUTS_MAX, MANIFEST_PROTOCOL_VERSION, type Manifest } from '../../shared/manifest.js';
import { fullOutputsOf } from '../context/verify-context.js';
import type { SessionDoc } from '../../shared/session.js';
import type { MessageRecord } from '../../shared/message.js';
import { canonicalJson, sha256Hex } from '../hash.js';
import { digestMessages, type ContextDigest } from './context-digest.js';
import { contextWithoutSummary, type ContextTransfer } from '../context/context-transfer.js';
import type { WorkspaceSnapshot } from '../workspace/capture.js';
import type { HandoffFacts } from './handoff-facts.js';
import type { LogBytes } from '../store/log-stream.js';

export interface ManifestInput {
  handoffId: string;
  session: SessionDoc;
  /** The log's records; or, for a session just landed, its `digest` and `context` (the records are not kept). */
  records?: readonly MessageRecord[];
  digest?: ContextDigest;
  workspace: WorkspaceSnapshot;
  client: { name: string; version: string };
  capabilities?: string[];
  /** Capabilities, tasks and permission state read from the session (see handoff-facts.ts). */
  facts?: HandoffFacts;
  /** Summary, anchors and token estimate (src/core/context); computed without a summary when absent. */
  context?: ContextTransfer;
  /** messages.jsonl as the landing read it back; the target checks its bytes against this (verify-offer.ts). */
  log?: LogBytes;
  /** For a session just landed (no records kept): the trimmed outputs it names, undefined when too many to list. */
  fullOutputs?: readonly { ref: string; sha256: string }[] | undefined;
  now?: Date;
}

/** Builds the handoff manifest: hashes and references only, never file contents or credentials. */
export function buildManifest(input: ManifestInput): Manifest {
  const { session, workspace } = input;
  const git = workspace.git;
  return {
    protocol_version: MANIFEST_PROTOCOL_VERSION,
    handoff_id: input.handoffId,
    session_id: session.id,
    parent_session_id: session.parentId,
    created_at: (input.now ?? new Date()).toISOString(),
    origin: { client: input.client.name, client_version: input.client.version, host: hostname(), pid: process.pid },
    title: session.title,
    workspace: {
      root: git?.root ?? workspace.cwd,
      git: git
        ? {
            remote: git.remote,
            branch: git.branch,
            head: git.head,
            dirty_files: git.dirtyFiles,
            untracked_files: git.untrackedFiles,
            // Defined in src/core/workspace/summary-hash.ts; the ref is set once the patch is stored.
            diff_sha256: git.diffSha256 ?? null,
            patch_ref: git.patch?.ref ?? null,
          }
        : null,
      // Changes beyond HEAD must be verified (and, with consent, rehydrated) at the target.
      requires_rehydration: (git?.files?.length ?? 0) > 0,
    },
    context: {
      ...(input.digest ?? digestMessages(input.records ?? [])),
      ...(input.context ?? contextWithoutSummary(session, input.records ?? [])),
      ...(input.log ? { log_bytes: input.log.bytes, log_sha256: input.log.sha256 } : {}),
      ...storedLogFields(input),
    },
    capabilities_required: input.capabilities ?? input.facts?.capabilities ?? ['conversation'],
    background_tasks: input.facts?.tasks ?? [],
    permission_state: input.facts?.permission ?? {
      mode: session.permission?.mode ?? 'default',
      rules_sha256: session.permission ? sha256Hex(canonicalJson(session.permission.rules)) : null,
    },
    model: input.facts?.model ?? (session.model ? { name: session.model.name, settings_ref: null } : null),
  };
}

/** The stored-bytes fields of an encrypted log (1.1), with the full outputs its records name; none past MANIFEST_FULL_OUTPUTS_MAX (the frame stays small). */
function storedLogFields(input: ManifestInput): Pick<Manifest['context'], 'log_stored_bytes' | 'log_stored_sha256' | 'full_outputs'> {
  const stored = input.log?.stored;
  if (!stored) return {};
  const outputs = 'fullOutputs' in input ? input.fullOutputs : input.records && fullOutputsOf(input.records);
  if (!outputs || outputs.length > MANIFEST_FULL_OUTPUTS_MAX) return {};
  return { log_stored_bytes: stored.bytes, log_stored_sha256: stored.sha256, full_outputs: outputs.map(({ ref, sha256 }) => ({ ref, sha256 })) };
}
