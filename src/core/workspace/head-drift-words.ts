/** Characters of a commit hash shown to a person (git's own short form). */
export const SHORT_HASH_CHARS = 7;

export interface HeadDriftFacts {
  /** The handed-off HEAD and the one on disk (null: an unborn branch). */
  expected: string | null;
  actual: string | null;
  /** Commits on disk not in the handoff, and the other way; null when the handed-off commit is not here. */
  ahead: number | null;
  behind: number | null;
}

const short = (oid: string | null) => (oid === null ? '(no commit yet)' : oid.slice(0, SHORT_HASH_CHARS));
const commits = (n: number) => `${n} ${n === 1 ? 'commit' : 'commits'}`;

/**
 * A moved HEAD in words, with what to do next: short hashes, how far and which way it moved, and
 * the step that brings the two together. Replaces "HEAD is <40 hex>, the handoff was at <40 hex>".
 */
export function describeHeadDrift({ expected, actual, ahead, behind }: HeadDriftFacts): string {
  const at = `the handoff was made at ${short(expected)}, this repository is at ${short(actual)}`;
  if (ahead === null || behind === null) {
    return `HEAD moved and the handed-off commit is not in this repository (${at}). Fetch or pull from where the handoff was made (git fetch), then open the session again to compare the files.`;
  }
  if (behind === 0) {
    return `HEAD moved ${commits(ahead)} ahead of the handoff (${at}): commits were made here since. The files below are compared with the handoff; take the handed-off version of a file, or keep yours.`;
  }
  if (ahead === 0) {
    return `HEAD is ${commits(behind)} behind the handoff (${at}): the handed-off commits are not checked out here. Pull them (git pull, or git switch --detach ${short(expected)}), then open the session again.`;
  }
  return `HEAD and the handoff diverged: ${commits(ahead)} here and ${commits(behind)} in the handoff since they split (${at}). Look at the handed-off state in a worktree, or merge or rebase the two, then open the session again.`;
}
