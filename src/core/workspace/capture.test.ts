import { symlinkSync, unlinkSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureWorkspace, captureWorkspaceWithPatch } from './capture.js';
import { listAndPatchRun } from './patch.js';
import { diffSummarySha256 } from './summary-hash.js';
import { withWorkingTreeIndex } from './temp-index.js';
import { cleanupTemp, git, makeRepo, sha256, tempDir } from './test-support/repo.js';

afterAll(cleanupTemp);

const BINARY = Buffer.from([0, 1, 2, 255, 0, 10, 13, 0, 7]);

/** One repository with every kind of change at once. */
function repoWithEveryChange() {
  const repo = makeRepo();
  repo.write('modified.txt', 'one\ntwo\n');
  repo.write('staged.txt', 'staged before\n');
  repo.write('deleted.txt', 'going away\n');
  repo.write('to-rename.txt', 'line 1\nline 2\nline 3\nline 4\nline 5\n');
  repo.write('mode.sh', '#!/bin/sh\necho hi\n');
  repo.write('type.txt', 'becomes a link\n');
  repo.write('image.bin', BINARY);
  repo.write('crlf.txt', 'a\r\nb\r\n');
  const head = repo.commitAll('base');

  repo.write('modified.txt', 'one\ntwo\nthree\n');
  repo.write('staged.txt', 'staged after\n');
  repo.git('add', 'staged.txt');
  unlinkSync(join(repo.root, 'deleted.txt'));
  repo.git('mv', 'to-rename.txt', 'renamed.txt');
  repo.write('renamed.txt', 'line 1\nline 2\nline 3\nline 4\nline 5\nline 6\n');
  repo.write('mode.sh', '#!/bin/sh\necho hi\n', 0o755);
  unlinkSync(join(repo.root, 'type.txt'));
  symlinkSync('modified.txt', join(repo.root, 'type.txt'));
  repo.write('image.bin', Buffer.concat([BINARY, BINARY]));
  repo.write('crlf.txt', 'a\r\nb\r\nc\r\n');
  repo.write('new dir/with space.txt', 'untracked\n');
  repo.write('line\nbreak.txt', 'newline in the name\n');
  repo.write('ünïcødé-文件.txt', 'unicode\n');
  repo.write('added.txt', 'added and staged\n');
  repo.git('add', 'added.txt');
  repo.write('.gitignore', 'ignored.log\n');
  repo.write('ignored.log', 'never captured\n');
  return { repo, head };
}

describe('captureWorkspace', () => {
  it('gives git: null for a directory outside any repository', async () => {
    const dir = tempDir();
    const snapshot = await captureWorkspace(dir);
    expect(snapshot.cwd).toBe(dir);
    expect(snapshot.git).toBeNull();
  });

  it('throws a typed error for a missing directory', async () => {
    await expect(captureWorkspace(join(tempDir(), 'nope'))).rejects.toMatchObject({ code: 'WORKSPACE_CWD_MISSING' });
  });

  it('classifies every kind of change with per-file sha256 of the working tree', async () => {
    const { repo, head } = repoWithEveryChange();
    const { snapshot, patchBytes } = await captureWorkspaceWithPatch(repo.root);
    const g = snapshot.git!;
    expect(g.root).toBe(repo.root);
    expect(g.head).toBe(head);
    expect(g.branch).toBe('main');
    expect(g.detached).toBe(false);
    expect(g.worktree).toBe(false);
    const byPath = new Map(g.files.map((f) => [f.path, f]));
    const status = Object.fromEntries(g.files.map((f) => [f.path, f.status]));
    expect(status).toEqual({
      'modified.txt': 'modified',
      'staged.txt': 'modified',
      'deleted.txt': 'deleted',
      'renamed.txt': 'renamed',
      'mode.sh': 'modified',
      'type.txt': 'typechange',
      'image.bin': 'modified',
      'crlf.txt': 'modified',
      'new dir/with space.txt': 'untracked',
      'line\nbreak.txt': 'untracked',
      'ünïcødé-文件.txt': 'untracked',
      'added.txt': 'added',
      '.gitignore': 'untracked',
    });
    expect(byPath.get('renamed.txt')).toMatchObject({ oldPath: 'to-rename.txt', staged: true, unstaged: true, additions: 1, deletions: 0 });
    expect(byPath.get('staged.txt')).toMatchObject({ staged: true, unstaged: false });
    expect(byPath.get('modified.txt')).toMatchObject({ staged: false, unstaged: true });
    expect(byPath.get('deleted.txt')).toMatchObject({ sha256: null, size: null, newMode: null });
    expect(byPath.get('mode.sh')).toMatchObject({ modeChanged: true, oldMode: '100644', newMode: '100755' });
    expect(byPath.get('type.txt')).toMatchObject({ oldMode: '100644', newMode: '120000', sha256: sha256('modified.txt') });
    expect(byPath.get('image.bin')).toMatchObject({ binary: true, additions: null, size: BINARY.length * 2 });
    expect(byPath.get('crlf.txt')).toMatchObject({ binary: false, sha256: sha256('a\r\nb\r\nc\r\n') });
    for (const file of g.files) {
      if (file.status === 'deleted' || file.status === 'typechange') continue;
      expect(file.sha256, file.path).toBe(sha256(readFileSync(join(repo.root, file.path))));
    }
    expect(byPath.has('ignored.log')).toBe(false);
    expect(g.untrackedFiles.sort()).toEqual(['.gitignore', 'line\nbreak.txt', 'new dir/with space.txt', 'ünïcødé-文件.txt']);
    expect(g.dirtyFiles).toContain('renamed.txt');
    expect(g.dirtyFiles).not.toContain('ignored.log');

    const patch = patchBytes!.toString('latin1');
    expect(patch).toContain('GIT binary patch');
    expect(patch).toContain('rename from to-rename.txt');
    expect(patch).toContain('new mode 100755');
    expect(patch).toContain('"b/line\\nbreak.txt"');
    expect(g.patch).toMatchObject({ sha256: sha256(patchBytes!), size: patchBytes!.length, stored: true, ref: null });
    expect(g.diffSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('never touches the person’s index or working tree', async () => {
    const { repo } = repoWithEveryChange();
    const indexBefore = readFileSync(join(repo.root, '.git/index'));
    const statusBefore = repo.git('status', '--porcelain=v2', '-z', '--untracked-files=all');
    await captureWorkspaceWithPatch(repo.root);
    expect(readFileSync(join(repo.root, '.git/index')).equals(indexBefore)).toBe(true);
    expect(repo.git('status', '--porcelain=v2', '-z', '--untracked-files=all')).toBe(statusBefore);
  });

  it('keeps the diff hash stable for the same state and changes it with any file', async () => {
    const { repo } = repoWithEveryChange();
    const first = await captureWorkspace(repo.root);
    const second = await captureWorkspace(repo.root);
    expect(second.git!.diffSha256).toBe(first.git!.diffSha256);
    expect(second.git!.patch!.sha256).toBe(first.git!.patch!.sha256);
    repo.write('modified.txt', 'one\ntwo\nthree!\n');
    const third = await captureWorkspace(repo.root);
    expect(third.git!.diffSha256).not.toBe(first.git!.diffSha256);
  });

  it('finds the root from a subdirectory and reports remotes without credentials and the upstream', async () => {
    const upstream = makeRepo();
    upstream.write('a.txt', 'a\n');
    upstream.commitAll('a');
    const clone = tempDir();
    git(clone, 'clone', '-q', upstream.root, 'c');
    const root = join(clone, 'c');
    git(root, 'remote', 'add', 'mirror', 'https://someone:s3cret-token@example.com/team/app.git');
    git(root, 'config', 'user.email', 'test@baton.invalid');
    const snapshot = await captureWorkspace(root);
    const g = snapshot.git!;
    expect(g.remote).toBe(upstream.root);
    expect(g.remotes).toContainEqual({ name: 'mirror', url: 'https://example.com/team/app.git' });
    expect(JSON.stringify(snapshot)).not.toContain('s3cret');
    expect(g.upstream).toBe('origin/main');
    expect(g.files).toEqual([]);

    const sub = makeRepo();
    sub.write('deep/er/x.txt', 'x\n');
    sub.commitAll('x');
    sub.write('deep/er/x.txt', 'y\n');
    const fromSub = await captureWorkspace(join(sub.root, 'deep/er'));
    expect(fromSub.cwd).toBe(join(sub.root, 'deep/er'));
    expect(fromSub.git!.root).toBe(sub.root);
    expect(fromSub.git!.files.map((f) => f.path)).toEqual(['deep/er/x.txt']);
  });

  it('reports a detached HEAD', async () => {
    const repo = makeRepo();
    repo.write('a.txt', '1\n');
    const first = repo.commitAll('1');
    repo.write('a.txt', '2\n');
    repo.commitAll('2');
    repo.git('checkout', '-q', '--detach', first);
    repo.write('a.txt', 'dirty\n');
    const g = (await captureWorkspace(repo.root)).git!;
    expect(g).toMatchObject({ detached: true, branch: null, head: first, upstream: null });
    expect(g.files.map((f) => f.status)).toEqual(['modified']);
  });

  it('handles an unborn branch (no commit yet)', async () => {
    const repo = makeRepo();
    repo.write('first.txt', 'hello\n');
    repo.write('staged.txt', 'staged\n');
    repo.git('add', 'staged.txt');
    const { snapshot, patchBytes } = await captureWorkspaceWithPatch(repo.root);
    const g = snapshot.git!;
    expect(g.head).toBeNull();
    expect(g.branch).toBe('main');
    expect(Object.fromEntries(g.files.map((f) => [f.path, f.status]))).toEqual({ 'first.txt': 'untracked', 'staged.txt': 'added' });
    expect(patchBytes!.toString()).toContain('+hello');
  });

  it('captures a linked worktree as its own root', async () => {
    const repo = makeRepo();
    repo.write('a.txt', 'a\n');
    repo.commitAll('a');
    const wt = join(tempDir(), 'linked');
    repo.git('worktree', 'add', '-q', '-b', 'side', wt);
    const linked = join(wt);
    git(linked, 'config', 'user.email', 'test@baton.invalid');
    repo.write('a.txt', 'main tree change\n');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(linked, 'b.txt'), 'only in the worktree\n');
    const g = (await captureWorkspace(linked)).git!;
    expect(g.worktree).toBe(true);
    expect(g.root).toBe(linked);
    expect(g.branch).toBe('side');
    expect(g.commonDir).toBe(join(repo.root, '.git'));
    expect(g.files.map((f) => f.path)).toEqual(['b.txt']);
    expect((await captureWorkspace(repo.root)).git!.worktree).toBe(false);
  });

  it('lists submodules without descending into them', async () => {
    const inner = makeRepo();
    inner.write('inner.txt', 'inner\n');
    const innerHead = inner.commitAll('inner');
    const outer = makeRepo();
    outer.write('outer.txt', 'outer\n');
    outer.commitAll('outer');
    outer.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', inner.root, 'vendor/inner');
    outer.commitAll('add submodule');
    // A change inside the submodule and one outside it.
    outer.write('vendor/inner/inner.txt', 'changed inside the submodule\n');
    outer.write('outer.txt', 'outer changed\n');
    const { snapshot, patchBytes } = await captureWorkspaceWithPatch(outer.root);
    const g = snapshot.git!;
    expect(g.submodules).toEqual([{ path: 'vendor/inner', commit: innerHead }]);
    expect(g.files.map((f) => f.path)).toEqual(['outer.txt']);
    expect(g.dirtyFiles).toEqual(['outer.txt']);
    expect(patchBytes!.toString()).not.toContain('inner');
  });

  it('from any directory of the work tree: the same files, status, submodules and patch as from the root', async () => {
    // status, remotes and ls-files run from cwd while the root is still being looked up.
    const inner = makeRepo();
    inner.write('inner.txt', 'inner\n');
    const innerHead = inner.commitAll('inner');
    const outer = repoWithEveryChange().repo;
    outer.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', inner.root, 'vendor/inner');
    outer.write('deep/er/x.txt', 'x\n');
    outer.write('deep/other/y.txt', 'y\n');
    const at = new Date('2026-11-30T12:00:00Z');
    const fromRoot = await captureWorkspaceWithPatch(outer.root, { now: at });
    for (const dir of ['deep/er', 'deep', 'new dir']) {
      const fromSub = await captureWorkspaceWithPatch(join(outer.root, dir), { now: at });
      expect({ ...fromSub.snapshot, cwd: fromRoot.snapshot.cwd }, dir).toEqual(fromRoot.snapshot);
      expect(fromSub.patchBytes!.equals(fromRoot.patchBytes!), dir).toBe(true);
    }
    expect(fromRoot.snapshot.git!.submodules).toEqual([{ path: 'vendor/inner', commit: innerHead }]);
    expect(fromRoot.snapshot.git!.untrackedFiles).toEqual(expect.arrayContaining(['deep/er/x.txt', 'deep/other/y.txt', 'new dir/with space.txt']));
  });

  it('a clean work tree skips the temporary index and gives exactly what the full diff path gives', async () => {
    const committed = makeRepo();
    committed.write('a.txt', 'a\n');
    committed.write('.gitignore', '*.log\n');
    committed.commitAll('a');
    committed.write('debug.log', 'ignored, never captured\n');
    const unborn = makeRepo(); // no commit, no file: HEAD is null
    for (const repo of [committed, unborn]) {
      const { snapshot, patchBytes } = await captureWorkspaceWithPatch(repo.root);
      const g = snapshot.git!;
      // The full path, run by hand on the same tree: temporary index, --raw/--numstat, the patch.
      const full = await withWorkingTreeIndex(repo.root, join(repo.root, '.git', 'index'), g.head, [], () => listAndPatchRun(repo.root, g.head, { patch: true }));
      expect(full.entries).toEqual([]);
      expect(g.files).toEqual([]);
      expect(patchBytes!.equals(full.patch!.bytes!)).toBe(true);
      expect(g.patch).toEqual({ sha256: full.patch!.sha256, size: full.patch!.size, stored: true, ref: null });
      expect(g.diffSha256).toBe(diffSummarySha256([], full.patch!.sha256));
      expect(snapshot.warnings).toEqual([]);
    }
    // One untracked file is enough to take the full path.
    committed.write('new.txt', 'new\n');
    const dirty = await captureWorkspaceWithPatch(committed.root);
    expect(dirty.snapshot.git!.files.map((f) => f.path)).toEqual(['new.txt']);
    expect(dirty.patchBytes!.toString()).toContain('+new');
  });

  it('leaves an embedded repository (not a submodule) out of the patch, with a warning', async () => {
    const repo = makeRepo();
    repo.write('a.txt', 'a\n');
    repo.commitAll('a');
    const nested = makeRepo(join(repo.root, 'nested'));
    nested.write('inner.txt', 'inner\n');
    nested.commitAll('inner');
    repo.write('b.txt', 'b\n');
    const { snapshot, patchBytes } = await captureWorkspaceWithPatch(repo.root);
    expect(snapshot.git!.files.map((f) => f.path)).toEqual(['b.txt']);
    expect(snapshot.warnings!.some((w) => w.code === 'git-add' && w.message.includes('embedded git repository'))).toBe(true);
    expect(patchBytes!.toString()).not.toContain('inner');
  });

  it('past the cap, keeps the hash and size but not the bytes, with a warning', async () => {
    const repo = makeRepo();
    repo.write('a.txt', 'a\n');
    repo.commitAll('a');
    repo.write('big.txt', 'x'.repeat(200_000));
    const full = await captureWorkspaceWithPatch(repo.root);
    const capped = await captureWorkspaceWithPatch(repo.root, { patchMaxBytes: 10_000 });
    expect(capped.patchBytes).toBeNull();
    expect(capped.snapshot.git!.patch).toMatchObject({ stored: false, size: full.patchBytes!.length, sha256: sha256(full.patchBytes!) });
    expect(capped.snapshot.warnings!.map((w) => w.code)).toContain('patch-too-large');
    expect(capped.snapshot.git!.diffSha256).toBe(full.snapshot.git!.diffSha256);
  });

  it('ignores the caller’s GIT_DIR and GIT_INDEX_FILE', async () => {
    const decoy = makeRepo();
    decoy.write('decoy.txt', 'decoy\n');
    decoy.commitAll('decoy');
    const repo = makeRepo();
    repo.write('real.txt', 'real\n');
    repo.commitAll('real');
    repo.write('real.txt', 'changed\n');
    const saved = { dir: process.env.GIT_DIR, index: process.env.GIT_INDEX_FILE };
    process.env.GIT_DIR = join(decoy.root, '.git');
    process.env.GIT_INDEX_FILE = join(decoy.root, '.git/index');
    try {
      const g = (await captureWorkspace(repo.root)).git!;
      expect(g.root).toBe(repo.root);
      expect(g.files.map((f) => f.path)).toEqual(['real.txt']);
    } finally {
      if (saved.dir === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = saved.dir;
      if (saved.index === undefined) delete process.env.GIT_INDEX_FILE;
      else process.env.GIT_INDEX_FILE = saved.index;
    }
  });

  it('sees a rename done without git mv as a rename once both sides are in the temporary index', async () => {
    const repo = makeRepo();
    repo.write('old-name.txt', 'same content\nacross a rename\nthree lines\n');
    repo.commitAll('base');
    renameSync(join(repo.root, 'old-name.txt'), join(repo.root, 'new-name.txt'));
    const g = (await captureWorkspace(repo.root)).git!;
    expect(g.files).toHaveLength(1);
    expect(g.files[0]).toMatchObject({ path: 'new-name.txt', oldPath: 'old-name.txt', status: 'renamed', staged: false, unstaged: true });
  });
});

describe('captureWorkspace and racy git', () => {
  it('a same-size edit in the same second as the commit is captured (the temporary index keeps the index mtime)', async () => {
    // Racy git: the private index is a copy; stamped "now", it would make git trust the stat data
    // of a file edited in the same second at the same size, and the edit would drop out.
    for (let round = 0; round < 6; round++) {
      const repo = makeRepo();
      repo.write('app.js', 'console.log(1);\n');
      repo.commitAll('base');
      repo.write('app.js', 'console.log(2);\n');
      const { snapshot, patchBytes } = await captureWorkspaceWithPatch(repo.root);
      expect(snapshot.git!.files.map((f) => f.path), `round ${round}`).toEqual(['app.js']);
      expect(patchBytes?.toString('utf8'), `round ${round}`).toContain('+console.log(2);');
    }
  });
});
