import type { RehydrationPlan, WorkspaceSnapshot, WorkspaceVerification } from '../../shared/workspace.js';
import { defaultWorktreeDir } from './worktree.js';

/**
 * What rehydration would do, for the UI to show and the person to confirm. Never acts.
 * complete → nothing; partial → one "take the handed-off version" per drifted file;
 * none → a worktree at the handed-off HEAD, by default beside the repository, when the repository
 * is here (else nothing, with what to do).
 */
export function planRehydration(verification: WorkspaceVerification, expected: WorkspaceSnapshot, sessionId: string): RehydrationPlan {
  const git = expected.git;
  if (verification.status === 'complete') return { kind: 'nothing', reason: 'The workspace on disk is the handed-off one.' };
  if (git === null) return { kind: 'nothing', reason: 'The handed-off directory is not a git repository: there is nothing to rehydrate.' };
  if (verification.status === 'partial' && verification.targetRoot !== null) {
    return {
      kind: 'per-file',
      targetRoot: verification.targetRoot,
      files: verification.drifted.map((d) => ({
        path: d.path,
        action: d.expectedSha256 === null ? ('delete' as const) : ('write' as const),
        expectedSha256: d.expectedSha256,
        actualSha256: d.actualSha256,
      })),
    };
  }
  const repoRoot = verification.targetRoot ?? null;
  const reason = verification.reasons.map((r) => r.message).join(' ');
  // `git worktree add` needs this repository here: with the root missing, no repository there, or
  // another one, offering it would only fail (WORKSPACE_NOT_A_REPOSITORY), so say what to do instead.
  const codes = new Set(verification.reasons.map((r) => r.code));
  if (repoRoot === null || codes.has('root-missing') || codes.has('not-a-repository') || codes.has('another-repository')) {
    return { kind: 'nothing', reason: `A worktree needs the handed-off repository on this machine, and it is not at ${repoRoot ?? git.root}. Clone it (or move it back) there, then open this session again.` };
  }
  return { kind: 'worktree', repoRoot, head: git.head, defaultDir: repoRoot ? defaultWorktreeDir(repoRoot, sessionId) : null, reason };
}
