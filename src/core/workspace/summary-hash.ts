import type { WorkspaceFile } from '../../shared/workspace.js';
import { canonicalJson, sha256Hex } from '../hash.js';

/**
 * The manifest's `workspace.git.diff_sha256`:
 *
 *   sha256( canonicalJson({ v: 1, patch: <patch sha256 or null>,
 *                           files: [{ path, oldPath|null, status, sha256|null, mode|null }] sorted by path }) )
 *
 * where `mode` is the working-tree git mode and canonicalJson sorts object keys. It changes when
 * any file's content, status, name or mode changes, or when the patch bytes change; staged vs
 * unstaged and line counts are left out so restaging the same content keeps the hash.
 */
export function diffSummarySha256(files: readonly WorkspaceFile[], patchSha256: string | null): string {
  const summary = [...files]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((file) => ({ path: file.path, oldPath: file.oldPath ?? null, status: file.status, sha256: file.sha256, mode: file.newMode }));
  return sha256Hex(canonicalJson({ v: 1, patch: patchSha256, files: summary }));
}
