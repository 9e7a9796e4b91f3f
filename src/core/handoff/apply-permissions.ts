import type { Manifest } from '../../shared/manifest.js';
import type { PermissionInForce } from '../../shared/session-fields/permission.js';
import type { ApprovalService } from '../approvals/index.js';
import { narrowPermissions, policyFromState, policyToState } from '../policy/narrow.js';
import type { SessionDoc } from '../../shared/session.js';
import type { SessionStore } from '../store/types.js';
import { hostPolicyFor } from './host-policy.js';
import { readCarriedPermission } from './manifest-permissions.js';

export interface ApplyPermissionsOptions {
  store: SessionStore;
  dataDir: string;
  grants: Pick<ApprovalService['grants'], 'narrowTo'>;
}

/**
 * Puts "permissions only narrow" in force at the target, before the baton is taken and before the
 * source hears `accepted`: the carried rules (the artifact the manifest names, checked by hash)
 * meet this host's policy in narrowPermissions; the approval service revokes every grant the
 * result does not keep. Returns the change that records the result in session.json as
 * `permission.inForce`: the receiver applies it in the write that takes the baton, so an accepted
 * offer costs one durable write of session.json, not two (issue 20), and the narrowing and the
 * baton land together or not at all. Idempotent: a retried offer of the same handoff narrows to
 * the same result, and the change leaves a document that already records it as it is.
 *
 * In two steps, for the receiver (receiver.ts, prepareAccept), which may read before the sender's
 * record of the offer is durable but must write nothing of the take: this reads (the session and the
 * carried rules); the function it returns reads this host's policy, narrows, revokes the grants
 * (writes) and gives the change.
 */
export async function prepareNarrowing(options: ApplyPermissionsOptions, manifest: Manifest): Promise<() => Promise<(doc: SessionDoc) => SessionDoc>> {
  const { store } = options;
  const sessionId = manifest.session_id;
  const session = await store.getSession(sessionId);
  const root = session.gitRoot ?? session.cwd;
  const ref = typeof manifest.permission_state.rules_ref === 'string' ? manifest.permission_state.rules_ref : session.permission?.rulesRef;
  const sha = manifest.permission_state.rules_sha256;
  const carried = ref && sha ? await readCarriedPermission(store, sessionId, ref, sha) : null;
  const source = policyFromState(carried ? { mode: carried.mode, rules: carried.rules } : session.permission, root);
  return async () => {
    // This host's policy is read here, at the take, not with the reads above: a policy.json
    // tightened while the sender's record was being fsynced is the one the baton is taken under.
    const narrowed = narrowPermissions(source, await hostPolicyFor(options.dataDir, source, root));
    const revoked = await options.grants.narrowTo(sessionId, narrowed);
    const inForce: PermissionInForce = {
      mode: narrowed.mode,
      rules: policyToState(narrowed).rules,
      handoffId: manifest.handoff_id,
      narrowedAt: new Date().toISOString(),
      revokedGrants: [...new Set([...revoked.map((g) => g.rule), ...source.grants.filter((g) => !narrowed.grants.includes(g))])].sort(),
    };
    return (doc: SessionDoc) => {
      if (doc.permission?.inForce?.handoffId === manifest.handoff_id) return doc;
      return { ...doc, permission: { ...(doc.permission ?? { mode: source.mode, rules: policyToState(source).rules }), inForce } };
    };
  };
}
