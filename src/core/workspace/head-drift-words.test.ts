import { describe, expect, it } from 'vitest';
import { describeHeadDrift } from './head-drift-words.js';

const A = '1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d';
const B = '9f8e7d6c5b4a39281706f5e4d3c2b1a098765432';

describe('a moved HEAD in words', () => {
  it('names both commits by their short hashes, never the 40-character ones, and says what to do', () => {
    const cases = [
      [{ ahead: 3, behind: 0 }, /^HEAD moved 3 commits ahead of the handoff .*take the handed-off version/],
      [{ ahead: 0, behind: 1 }, /^HEAD is 1 commit behind the handoff .*git pull, or git switch --detach 1a2b3c4/],
      [{ ahead: 2, behind: 5 }, /^HEAD and the handoff diverged: 2 commits here and 5 commits in the handoff .*worktree/],
      [{ ahead: null, behind: null }, /not in this repository .*git fetch/],
    ] as const;
    for (const [counts, expected] of cases) {
      const text = describeHeadDrift({ expected: A, actual: B, ...counts });
      expect(text).toMatch(expected);
      expect(text).toContain('the handoff was made at 1a2b3c4, this repository is at 9f8e7d6');
      expect(text).not.toContain(A);
      expect(text).not.toContain(B);
    }
  });

  it('an unborn branch on either side is said in words', () => {
    expect(describeHeadDrift({ expected: null, actual: B, ahead: null, behind: null })).toContain('made at (no commit yet)');
  });
});
