import type { Manifest } from '../../shared/manifest.js';
import type { PermissionInForce } from '../../shared/session-fields/permission.js';
import type { ApprovalService } from '../approvals/index.js';
import { narrowPermissions, policyFromState, policyToState } from '../policy/narrow.js';
import type { SessionStore } from '../store/types.js';
import { hostPolicyFor } from './host-policy.js';
import { readCarriedPermission } from './manifest-permissions.js';

export interface ApplyPermissionsOptions {
  store: SessionStore;
  dataDir: string;
  grants: Pick<ApprovalService['grants'], 'narrowTo'>;
}

/**
 * Puts "permissions only narrow" in force at the target, after the baton is taken and before the
 * source hears `accepted`: the carried rules (the artifact the manifest names, checked by hash)
 * meet this host's policy in narrowPermissions; the approval service revokes every grant the
 * result does not keep; the result is recorded in session.json as `permission.inForce`.
 * Idempotent: a retried offer of the same handoff narrows to the same result.
 */
export async function applyCarriedPermissions(options: ApplyPermissionsOptions, manifest: Manifest): Promise<PermissionInForce> {
  const { store } = options;
  const sessionId = manifest.session_id;
  const session = await store.getSession(sessionId);
  const root = session.gitRoot ?? session.cwd;
  const ref = typeof manifest.permission_state.rules_ref === 'string' ? manifest.permission_state.rules_ref : session.permission?.rulesRef;
  const sha = manifest.permission_state.rules_sha256;
  const carried = ref && sha ? await readCarriedPermission(store, sessionId, ref, sha) : null;
  const source = policyFromState(carried ? { mode: carried.mode, rules: carried.rules } : session.permission, root);
  const target = await hostPolicyFor(options.dataDir, source, root);
  const narrowed = narrowPermissions(source, target);
  const revoked = await options.grants.narrowTo(sessionId, narrowed);
  const inForce: PermissionInForce = {
    mode: narrowed.mode,
    rules: policyToState(narrowed).rules,
    handoffId: manifest.handoff_id,
    narrowedAt: new Date().toISOString(),
    revokedGrants: [...new Set([...revoked.map((g) => g.rule), ...source.grants.filter((g) => !narrowed.grants.includes(g))])].sort(),
  };
  await store.mutate(sessionId, (doc) => {
    if (doc.permission?.inForce?.handoffId === manifest.handoff_id) return undefined;
    return { ...doc, permission: { ...(doc.permission ?? { mode: source.mode, rules: policyToState(source).rules }), inForce } };
  });
  return inForce;
}
