import { cpSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureWorkspace, captureWorkspaceWithPatch } from './capture.js';
import { GitSpawner } from './git-spawner.js';
import { planRehydration } from './plan.js';
import { cleanupTemp, git, makeRepo, repoAt, sha256, tempDir } from './test-support/repo.js';
import { OBSERVATION_MAX_AGE_MS, verifyWorkspace } from './verify.js';

afterAll(cleanupTemp);

/** A repository with three changed files, captured. */
async function handedOff() {
  const repo = makeRepo();
  repo.write('a.txt', 'a\n');
  repo.write('b.txt', 'b\n');
  repo.write('clean.txt', 'clean\n');
  repo.write('gone.txt', 'gone\n');
  const head = repo.commitAll('base');
  repo.write('a.txt', 'a changed\n');
  repo.write('new.txt', 'new\n');
  unlinkSync(join(repo.root, 'gone.txt'));
  const snapshot = await captureWorkspace(repo.root);
  return { repo, head, snapshot };
}

describe('verifyWorkspace', () => {
  it('is complete when root, HEAD and every file match', async () => {
    const { repo, snapshot } = await handedOff();
    const result = await verifyWorkspace(snapshot, repo.root);
    expect(result).toMatchObject({ status: 'complete', drifted: [], targetRoot: repo.root });
    expect(result.reasons.map((r) => r.code)).toEqual(['match']);
    expect(planRehydration(result, snapshot, 's1').kind).toBe('nothing');
  });

  it('is partial when a handed-off file changed, listing expected and actual hashes', async () => {
    const { repo, snapshot } = await handedOff();
    repo.write('a.txt', 'edited after the handoff\n');
    const result = await verifyWorkspace(snapshot, repo.root);
    expect(result.status).toBe('partial');
    expect(result.drifted).toEqual([{ path: 'a.txt', expectedSha256: sha256('a changed\n'), actualSha256: sha256('edited after the handoff\n') }]);
    expect(result.reasons.map((r) => r.code)).toEqual(['file-drift']);
    const plan = planRehydration(result, snapshot, 's1');
    expect(plan).toMatchObject({ kind: 'per-file', targetRoot: repo.root, files: [{ path: 'a.txt', action: 'write' }] });
  });

  it('sees a file changed only at the target, a deleted file restored, and an untracked file removed', async () => {
    const { repo, snapshot } = await handedOff();
    repo.write('clean.txt', 'touched at the target\n');
    repo.write('gone.txt', 'back again\n');
    rmSync(join(repo.root, 'new.txt'));
    const result = await verifyWorkspace(snapshot, repo.root);
    expect(result.status).toBe('partial');
    expect(result.drifted).toEqual([
      { path: 'clean.txt', expectedSha256: sha256('clean\n'), actualSha256: sha256('touched at the target\n') },
      { path: 'gone.txt', expectedSha256: null, actualSha256: sha256('back again\n') },
      { path: 'new.txt', expectedSha256: sha256('new\n'), actualSha256: null },
    ]);
    const plan = planRehydration(result, snapshot, 's1');
    expect(plan.kind === 'per-file' && plan.files.map((f) => f.action)).toEqual(['write', 'delete', 'write']);
  });

  it('reports HEAD drift and the files the new commit changed', async () => {
    const { repo, head, snapshot } = await handedOff();
    repo.write('b.txt', 'b committed at the target\n');
    repo.git('add', 'b.txt');
    repo.git('commit', '-q', '-m', 'moved on');
    const result = await verifyWorkspace(snapshot, repo.root);
    expect(result.status).toBe('partial');
    expect(result.headDrift).toEqual({ expected: head, actual: repo.git('rev-parse', 'HEAD') });
    expect(result.drifted).toEqual([{ path: 'b.txt', expectedSha256: sha256('b\n'), actualSha256: sha256('b committed at the target\n') }]);
    expect(result.reasons.map((r) => r.code)).toEqual(['head-drift', 'file-drift']);
    expect(result.reasons[0]!.message).toMatch(/^HEAD moved 1 commit ahead of the handoff \(the handoff was made at [0-9a-f]{7}, this repository is at [0-9a-f]{7}\)/);
  });

  it('is none when the root is missing', async () => {
    const { snapshot } = await handedOff();
    const result = await verifyWorkspace(snapshot, join(tempDir(), 'moved-away'));
    expect(result).toMatchObject({ status: 'none', targetRoot: null });
    expect(result.reasons[0]!.code).toBe('root-missing');
    const plan = planRehydration(result, snapshot, 'sess-12345678');
    // No repository to add a worktree to: not offered, and the reason says what to do.
    expect(plan).toMatchObject({ kind: 'nothing', reason: expect.stringContaining('Clone it (or move it back)') });
  });

  it('is none for a directory that is not a repository', async () => {
    const { snapshot } = await handedOff();
    const result = await verifyWorkspace(snapshot, tempDir());
    expect(result.status).toBe('none');
    expect(result.reasons[0]!.code).toBe('not-a-repository');
    expect(planRehydration(result, snapshot, 'sess-12345678').kind).toBe('nothing');
  });

  it('is none for another repository', async () => {
    const { snapshot } = await handedOff();
    const other = makeRepo();
    other.write('a.txt', 'a\n');
    other.commitAll('unrelated');
    const result = await verifyWorkspace(snapshot, other.root);
    expect(result).toMatchObject({ status: 'none', targetRoot: other.root });
    expect(result.reasons[0]!.code).toBe('another-repository');
    expect(planRehydration(result, snapshot, 'sess-12345678').kind).toBe('nothing');
  });

  it('is none on another branch, and plans a worktree beside the repository', async () => {
    const { repo, snapshot } = await handedOff();
    repo.git('stash', '-q', '--include-untracked');
    repo.git('checkout', '-q', '-b', 'elsewhere');
    const result = await verifyWorkspace(snapshot, repo.root);
    expect(result.status).toBe('none');
    expect(result.reasons[0]!.code).toBe('branch-changed');
    const plan = planRehydration(result, snapshot, 'sess-abcdefgh12345678');
    expect(plan).toEqual(expect.objectContaining({ kind: 'worktree', repoRoot: repo.root, defaultDir: `${repo.root}-baton-12345678` }));
  });

  it('is partial for a clone at another path with the same files (root moved)', async () => {
    const { repo, snapshot } = await handedOff();
    const elsewhere = join(tempDir(), 'clone');
    git(tempDir(), 'clone', '-q', repo.root, elsewhere);
    const clone = repoAt(elsewhere);
    clone.write('a.txt', 'a changed\n');
    clone.write('new.txt', 'new\n');
    unlinkSync(join(elsewhere, 'gone.txt'));
    const result = await verifyWorkspace(snapshot, elsewhere);
    expect(result.status).toBe('partial');
    expect(result.reasons.map((r) => r.code)).toEqual(['root-moved']);
    expect(result.drifted).toEqual([]);
  });

  it('follows a copied workspace tree of the same repository (same commit, other path)', async () => {
    const { repo, snapshot } = await handedOff();
    const copy = join(tempDir(), 'copy');
    cpSync(repo.root, copy, { recursive: true });
    renameSync(join(copy, 'new.txt'), join(copy, 'new-renamed.txt'));
    const result = await verifyWorkspace(snapshot, copy);
    expect(result.status).toBe('partial');
    expect(result.drifted.map((d) => d.path)).toEqual(['new-renamed.txt', 'new.txt']);
  });

  it('is complete for a handed-off directory outside git when it exists', async () => {
    const dir = tempDir();
    const snapshot = await captureWorkspace(dir);
    const result = await verifyWorkspace(snapshot, dir);
    expect(result.status).toBe('complete');
    expect(result.reasons[0]!.code).toBe('not-a-git-workspace');
  });
  it('asks git whether the handed-off HEAD is a commit here only when HEAD moved: no cat-file while it is unchanged, one after a commit', async () => {
    const { repo, snapshot } = await handedOff();
    const spawner = new GitSpawner().start();
    const asked: string[] = [];
    const run = spawner.run.bind(spawner);
    spawner.run = (cwd, argsList, options) => {
      for (const args of argsList) asked.push(args[0]!);
      return run(cwd, argsList, options);
    };
    try {
      expect((await verifyWorkspace(snapshot, repo.root, { spawner })).status).toBe('complete');
      expect(asked).toEqual(['rev-parse', 'status']);
      asked.length = 0;
      repo.write('b.txt', 'b committed at the target\n');
      repo.git('add', 'b.txt');
      repo.git('commit', '-q', '-m', 'moved on');
      const moved = await verifyWorkspace(snapshot, repo.root, { spawner });
      expect(moved.reasons.map((r) => r.code)).toEqual(['head-drift', 'file-drift']);
      // Counted ahead (its rev-list is not a batch), and asked once for the three steps that read it.
      expect(moved.reasons[0]!.message).toMatch(/^HEAD moved 1 commit ahead/);
      expect(asked).toEqual(['rev-parse', 'status', 'cat-file']);
    } finally {
      spawner.close();
    }
  });

  it('says a handed-off HEAD this clone does not have leaves the files changed only here uncompared (head-unknown)', async () => {
    const source = makeRepo();
    source.write('a.txt', 'a\n');
    source.write('here.txt', 'here\n');
    source.commitAll('base');
    source.git('remote', 'add', 'origin', 'https://example.invalid/project.git');
    const target = repoAt(join(tempDir(), 'clone'));
    git(tempDir(), 'clone', '-q', source.root, target.root);
    target.git('remote', 'set-url', 'origin', 'https://example.invalid/project.git');
    source.write('a.txt', 'a moved on\n');
    const head = source.commitAll('only at the source');
    const snapshot = await captureWorkspace(source.root);
    target.write('here.txt', 'changed only at the target\n');
    const result = await verifyWorkspace(snapshot, target.root);
    expect(result.headDrift).toEqual({ expected: head, actual: target.git('rev-parse', 'HEAD') });
    expect(result.reasons.map((r) => r.code)).toEqual(['root-moved', 'head-drift', 'head-unknown']);
    expect(result.reasons[1]!.message).toMatch(/the handed-off commit is not in this repository/);
    expect(result.drifted).toEqual([]);
  });
  it('takes a recent capture of the same root instead of asking git, and still hashes the files from the disk', async () => {
    const { repo } = await handedOff();
    const { snapshot, observed } = await captureWorkspaceWithPatch(repo.root);
    expect(observed?.located.root).toBe(repo.root);
    const spawner = new GitSpawner().start();
    const asked: string[][] = [];
    const run = spawner.run.bind(spawner);
    spawner.run = (cwd, argsList, options) => (asked.push(...argsList), run(cwd, argsList, options));
    try {
      expect(await verifyWorkspace(snapshot, repo.root, { spawner, observed: { ...observed!, at: Date.now() } })).toMatchObject({ status: 'complete', drifted: [] });
      expect(asked).toEqual([]);
      // A file edited after the capture: its bytes on disk differ from the handed-off hash.
      repo.write('a.txt', 'edited after the capture\n');
      // (Its clock set to now: the check is of what is used, not of how fast this machine runs the test.)
      const edited = await verifyWorkspace(snapshot, repo.root, { spawner, observed: { ...observed!, at: Date.now() } });
      expect(edited).toMatchObject({ status: 'partial', drifted: [{ path: 'a.txt', expectedSha256: sha256('a changed\n'), actualSha256: sha256('edited after the capture\n') }] });
      expect(asked).toEqual([]);
      // Too old, or of another directory: git is asked, as without one.
      const old = { ...observed!, at: Date.now() - OBSERVATION_MAX_AGE_MS - 1 };
      expect((await verifyWorkspace(snapshot, repo.root, { spawner, observed: old })).status).toBe('partial');
      expect(asked.map((args) => args[0])).toEqual(['rev-parse', 'status']);
      const elsewhere = { ...observed!, at: Date.now(), located: { ...observed!.located, root: tempDir() } };
      expect((await verifyWorkspace(snapshot, repo.root, { spawner, observed: elsewhere })).status).toBe('partial');
      expect(asked.map((args) => args[0])).toEqual(['rev-parse', 'status', 'rev-parse', 'status']);
    } finally {
      spawner.close();
    }
  });

  it('a capture outside any repository observes nothing', async () => {
    expect((await captureWorkspaceWithPatch(tempDir())).observed).toBeUndefined();
  });
});
