import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WorkspaceFile } from '../../shared/workspace.js';
import { parseRawNumstatZ } from './diff-list.js';
import { redactRemoteUrl } from './remotes.js';
import { parseStatusV2 } from './status.js';
import { diffSummarySha256 } from './summary-hash.js';

describe('parseStatusV2', () => {
  it('reads branch headers, ordinary, renamed, unmerged, submodule and untracked records', () => {
    const text = [
      '# branch.oid 28c5c5a10171fc148e5fbc269b152c75e18ebc5c',
      '# branch.head feature/x y',
      '# branch.upstream origin/feature/x y',
      '# branch.ab +1 -0',
      '2 RM N... 100644 100644 100644 422c2b7ab3b3c668038da977e4e93a5fc623169c 422c2b7ab3b3c668038da977e4e93a5fc623169c R100 new name.txt',
      'old name.txt',
      '1 .M N... 100644 100644 100755 c1b0730e0133447badcfd47fd144e254807b06e1 c1b0730e0133447badcfd47fd144e254807b06e1 sp ace.txt',
      '1 .M SC.. 160000 160000 160000 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa vendor/lib',
      'u UU N... 100644 100644 100644 100644 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb cccccccccccccccccccccccccccccccccccccccc conflict.txt',
      '? new\nline',
      '',
    ].join('\0');
    const report = parseStatusV2(text);
    expect(report).toMatchObject({ oid: '28c5c5a10171fc148e5fbc269b152c75e18ebc5c', branch: 'feature/x y', detached: false, upstream: 'origin/feature/x y' });
    expect(report.entries).toEqual([
      { path: 'new name.txt', origPath: 'old name.txt', x: 'R', y: 'M', untracked: false, submodule: false },
      { path: 'sp ace.txt', x: '.', y: 'M', untracked: false, submodule: false },
      { path: 'vendor/lib', x: '.', y: 'M', untracked: false, submodule: true },
      { path: 'conflict.txt', x: 'U', y: 'U', untracked: false, submodule: false, unmerged: true },
      { path: 'new\nline', x: '?', y: '?', untracked: true, submodule: false },
    ]);
  });

  it('reads an unborn branch and a detached HEAD', () => {
    expect(parseStatusV2('# branch.oid (initial)\0# branch.head main\0')).toMatchObject({ oid: null, branch: 'main', detached: false });
    expect(parseStatusV2('# branch.oid abc\0# branch.head (detached)\0')).toMatchObject({ oid: 'abc', branch: null, detached: true });
  });
});

describe('parseRawNumstatZ', () => {
  it('pairs raw records with numstat, renames included, binary marked', () => {
    const text = [
      ':100644 100644 422c2b7 de98044 R066', 'a.txt', 'b.txt',
      ':000000 100644 0000000 bdc955b A', 'bin.dat',
      ':100644 000000 1111111 0000000 D', 'gone\tx',
      ':100644 100755 c1b0730 c1b0730 M', 'sp ace.txt',
      '1\t0\t', 'a.txt', 'b.txt',
      '-\t-\tbin.dat',
      '0\t3\tgone\tx',
      '0\t0\tsp ace.txt',
      '',
    ].join('\0');
    expect(parseRawNumstatZ(text)).toEqual([
      { path: 'b.txt', oldPath: 'a.txt', status: 'renamed', oldMode: '100644', newMode: '100644', binary: false, additions: 1, deletions: 0 },
      { path: 'bin.dat', status: 'added', oldMode: null, newMode: '100644', binary: true, additions: null, deletions: null },
      { path: 'gone\tx', status: 'deleted', oldMode: '100644', newMode: null, binary: false, additions: 0, deletions: 3 },
      { path: 'sp ace.txt', status: 'modified', oldMode: '100644', newMode: '100755', binary: false, additions: 0, deletions: 0 },
    ]);
  });

  it('reads an empty diff as no entries', () => {
    expect(parseRawNumstatZ('')).toEqual([]);
  });
});

describe('redactRemoteUrl', () => {
  it.each([
    ['https://user:token@github.com/o/r.git', 'https://github.com/o/r.git'],
    ['https://token@github.com/o/r.git', 'https://github.com/o/r.git'],
    ['ssh://git@host:22/o/r.git', 'ssh://host:22/o/r.git'],
    ['git@github.com:o/r.git', 'git@github.com:o/r.git'],
    ['/srv/git/repo.git', '/srv/git/repo.git'],
    ['https://github.com/o/r.git', 'https://github.com/o/r.git'],
  ])('%s → %s', (input, output) => {
    expect(redactRemoteUrl(input)).toBe(output);
  });
});

describe('diffSummarySha256', () => {
  const file = fc.record({
    path: fc.string({ minLength: 1, maxLength: 12 }),
    status: fc.constantFrom('modified', 'added', 'deleted', 'untracked'),
    sha256: fc.option(fc.stringMatching(/^[0-9a-f]{64}$/), { nil: null }),
    newMode: fc.constantFrom('100644', '100755', null),
    staged: fc.boolean(),
  });

  it('does not depend on file order or on staged/unstaged, and depends on every content hash', () => {
    fc.assert(
      fc.property(fc.uniqueArray(file, { selector: (f) => f.path, minLength: 1, maxLength: 8 }), fc.nat(), (raw, pick) => {
        const files = raw.map((f) => ({ ...f, unstaged: !f.staged, binary: false, size: 1, oldMode: null, modeChanged: false, additions: 0, deletions: 0 }) as WorkspaceFile);
        const hash = diffSummarySha256(files, null);
        expect(diffSummarySha256([...files].reverse(), null)).toBe(hash);
        expect(diffSummarySha256(files.map((f) => ({ ...f, staged: !f.staged })), null)).toBe(hash);
        const changed = files.map((f, i) => (i === pick % files.length ? { ...f, sha256: f.sha256 === 'f'.repeat(64) ? 'e'.repeat(64) : 'f'.repeat(64) } : f));
        expect(diffSummarySha256(changed, null)).not.toBe(hash);
        expect(diffSummarySha256(files, 'a'.repeat(64))).not.toBe(hash);
      }),
      { numRuns: 300 },
    );
  });
});
