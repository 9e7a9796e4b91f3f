import type { PermissionState } from '../../shared/session-fields/permission.js';
import type { SessionDoc } from '../../shared/session.js';
import { canonicalJson, sha256Hex } from '../hash.js';
import { ARTIFACTS_DIR, artifactName } from '../store/layout.js';
import type { NewArtifact, SessionStore } from '../store/types.js';

/** The artifact that carries a session's permission rules (artifacts/<sha256>.json). */
export const PERMISSION_ARTIFACT_EXTENSION = 'json';
export const PERMISSION_ARTIFACT_KIND = 'baton.permission-rules';

export interface CarriedPermission {
  kind: typeof PERMISSION_ARTIFACT_KIND;
  version: 1;
  sessionId: string;
  mode: string;
  sourceTool: string;
  sourceMode: string | null;
  /** `allow:` / `deny:` / `root:` / `grant:` rules, sorted, each once. */
  rules: string[];
  sources: NonNullable<PermissionState['sources']>;
}

/**
 * The permission state a session carries at a handoff: the mode and rules it landed with (from
 * the transcript and settings files, for an import) plus Baton's own grants that are in force.
 */
export function carriedPermission(session: Pick<SessionDoc, 'id' | 'permission' | 'source'>, activeGrants: readonly string[]): CarriedPermission {
  const state = session.permission;
  const grants = activeGrants.map((rule) => `grant:${rule}`);
  // Grants are read from the approvals log each time; an earlier count is not carried over.
  const sources = (state?.sources ?? []).filter((s) => s.kind !== 'baton-grants');
  if (grants.length > 0) sources.push({ kind: 'baton-grants', rules: grants.length });
  return {
    kind: PERMISSION_ARTIFACT_KIND,
    version: 1,
    sessionId: session.id,
    mode: state?.mode ?? 'default',
    sourceTool: state?.sourceTool ?? session.source.tool,
    sourceMode: state?.sourceMode ?? null,
    rules: [...new Set([...(state?.rules ?? []).filter((r) => !r.startsWith('grant:')), ...grants])].sort(),
    sources,
  };
}

/**
 * Stores the carried rules as an artifact by hash and records its ref in session.json, so the
 * manifest's `permission_state.rules_sha256` names bytes the target can read and check.
 */
export async function storeCarriedPermission(store: SessionStore, session: SessionDoc, carried: CarriedPermission): Promise<{ mode: string; rules_sha256: string; rules_ref: string }> {
  const { sha256, ref } = await store.putArtifact(session.id, new TextEncoder().encode(canonicalJson(carried)), PERMISSION_ARTIFACT_EXTENSION);
  if (session.permission?.rulesSha256 !== sha256) {
    await store.mutate(session.id, (doc) => ({ ...doc, permission: namingRules(doc.permission, carried, ref, sha256) }));
  }
  return { mode: carried.mode, rules_sha256: sha256, rules_ref: ref };
}

/**
 * A session about to land: its permission state already naming its rules artifact, and that
 * artifact, for the landing to write in its staging directory (as the workspace patch). A new
 * session has no grants yet, so the handoff's storeCarriedPermission then finds the same bytes in
 * place and does not rewrite session.json (issue 20); when it does have some (an approvals log
 * left under an imported session's id), the hashes differ and it stores them as before.
 */
export function landingPermission(session: Pick<SessionDoc, 'id' | 'permission' | 'source'>): { permission: PermissionState; artifact: NewArtifact } {
  const carried = carriedPermission(session, []);
  const bytes = new TextEncoder().encode(canonicalJson(carried));
  const sha256 = sha256Hex(bytes);
  const ref = `${ARTIFACTS_DIR}/${artifactName(sha256, PERMISSION_ARTIFACT_EXTENSION)}`;
  return { permission: namingRules(session.permission, carried, ref, sha256), artifact: { bytes, extension: PERMISSION_ARTIFACT_EXTENSION } };
}

/** session.json's `permission` once the carried rules are stored at `ref`. */
function namingRules(permission: PermissionState | null | undefined, carried: CarriedPermission, ref: string, sha256: string): PermissionState {
  return { ...(permission ?? { mode: carried.mode, rules: carried.rules }), sources: carried.sources, rulesRef: ref, rulesSha256: sha256 };
}

/** Reads and checks the rules artifact a manifest names; throws with the ref when the bytes do not match. */
export async function readCarriedPermission(store: SessionStore, sessionId: string, ref: string, sha256: string): Promise<CarriedPermission> {
  const bytes = await store.readArtifact(sessionId, ref);
  const actual = sha256Hex(bytes);
  if (actual !== sha256) throw Object.assign(new Error(`The permission rules ${ref} of session ${sessionId} hash to ${actual}, not ${sha256}.`), { code: 'VERIFY_MISMATCH' });
  const parsed = JSON.parse(new TextDecoder().decode(bytes)) as CarriedPermission;
  if (parsed.kind !== PERMISSION_ARTIFACT_KIND || !Array.isArray(parsed.rules) || typeof parsed.mode !== 'string') {
    throw Object.assign(new Error(`${ref} of session ${sessionId} is not a permission rules artifact.`), { code: 'INVALID_MANIFEST' });
  }
  return parsed;
}
