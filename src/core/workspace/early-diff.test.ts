import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureWorkspaceWithPatch, locateRepository } from './capture.js';
import { guessRepository, readHeadCommit, startEarlyDiff } from './early-diff.js';
import { runGit } from './git.js';
import { GitSpawner } from './git-spawner.js';
import { STATUS_ARGS, parseStatusV2 } from './status.js';
import { cleanupTemp, makeRepo, tempDir } from './test-support/repo.js';
import { stableCapture } from './test-support/stable-capture.js';

const spawner = new GitSpawner().start();
afterAll(() => {
  spawner.close();
  cleanupTemp();
});

/** A repository with a committed file changed in the work tree and another staged: nothing untracked, the short way's case. */
function dirtyRepo() {
  const repo = makeRepo();
  repo.write('a.txt', 'one\n');
  repo.write('dir/b.txt', 'bee\n');
  repo.commitAll('start');
  repo.write('a.txt', 'two\n');
  repo.write('dir/b.txt', 'staged bee\n');
  repo.git('add', 'dir/b.txt');
  return repo;
}

/** The first round's answers, as the capture reads them. */
async function firstRound(dir: string) {
  const located = (await locateRepository(dir))!;
  const status = parseStatusV2((await runGit(dir, STATUS_ARGS)).stdout.toString('utf8'));
  return { located, status };
}

describe.skipIf(process.platform === 'win32')("a host's capture starts a dirty tree's diff beside its first round (issue 20)", () => {
  it('a dirty capture in a host runs two batches at once, not one after the other, and answers as a capture without the host', async () => {
    const repo = dirtyRepo();
    const before = spawner.batchesRun;
    const hosted = await captureWorkspaceWithPatch(repo.root, { spawner });
    // The first round and the early diff; the second round's batch did not run.
    expect(spawner.batchesRun - before).toBe(2);
    expect(stableCapture(hosted)).toEqual(stableCapture(await captureWorkspaceWithPatch(repo.root)));
    expect(hosted.snapshot.git!.files.map((f) => f.path)).toEqual(['a.txt', 'dir/b.txt']);
    expect(hosted.patchBytes!.toString()).toContain('+two');
  });

  it('from a subdirectory: the repository is guessed at its root and the diff is taken', async () => {
    const repo = dirtyRepo();
    const sub = join(repo.root, 'dir');
    expect(await guessRepository(sub)).toEqual({ root: repo.root, gitDir: join(repo.root, '.git'), indexPath: join(repo.root, '.git', 'index') });
    const early = (await startEarlyDiff(sub, spawner, { patch: true }))!;
    const { located, status } = await firstRound(sub);
    const taken = await early.takeIf(located, status);
    expect(taken?.entries.map((e) => e.path)).toEqual(['a.txt', 'dir/b.txt']);
  });

  it('is dropped when HEAD moved after it started: a commit seen by status, or one made after status', async () => {
    const repo = dirtyRepo();
    const early = (await startEarlyDiff(repo.root, spawner, { patch: true }))!;
    repo.git('commit', '-q', '-m', 'b staged');
    const seen = await firstRound(repo.root);
    expect(await early.takeIf(seen.located, seen.status)).toBeNull();

    const again = (await startEarlyDiff(repo.root, spawner, { patch: true }))!;
    const before = await firstRound(repo.root);
    repo.write('a.txt', 'three\n');
    repo.git('commit', '-q', '-am', 'a too');
    repo.write('a.txt', 'four\n');
    expect(await again.takeIf(before.located, before.status)).toBeNull();
  });

  it('is dropped when the person\'s index was rewritten meanwhile (a git add), and its answer is then the second round\'s', async () => {
    const repo = dirtyRepo();
    const early = (await startEarlyDiff(repo.root, spawner, { patch: true }))!;
    repo.write('c.txt', 'new\n');
    repo.git('add', 'c.txt');
    const { located, status } = await firstRound(repo.root);
    expect(await early.takeIf(located, status)).toBeNull();
    const captured = await captureWorkspaceWithPatch(repo.root, { spawner });
    expect(captured.snapshot.git!.files.map((f) => f.path)).toEqual(['a.txt', 'c.txt', 'dir/b.txt']);
  });

  it("is not started where the disk does not show a plain repository: a worktree's .git file, outside any repository, no index yet, an unborn HEAD", async () => {
    const repo = dirtyRepo();
    const linked = join(tempDir(), 'linked');
    repo.git('worktree', 'add', '-q', linked);
    expect(await guessRepository(linked)).toBeNull();
    expect(await startEarlyDiff(linked, spawner, { patch: true })).toBeNull();
    expect(await startEarlyDiff(tempDir(), spawner, { patch: true })).toBeNull();
    const fresh = makeRepo();
    expect(await startEarlyDiff(fresh.root, spawner, { patch: true })).toBeNull(); // no index
    fresh.write('x.txt', 'x\n');
    fresh.git('add', 'x.txt');
    expect(await startEarlyDiff(fresh.root, spawner, { patch: true })).not.toBeNull();
    const early = (await startEarlyDiff(fresh.root, spawner, { patch: true }))!;
    const { located, status } = await firstRound(fresh.root);
    expect(await early.takeIf(located, status)).toBeNull(); // unborn: no HEAD to read
    // The worktree's capture through the host still answers as without it.
    writeFileSync(join(linked, 'a.txt'), 'in the worktree\n');
    expect(stableCapture(await captureWorkspaceWithPatch(linked, { spawner }))).toEqual(stableCapture(await captureWorkspaceWithPatch(linked)));
  });

  it("is dropped where git's own lookup disagrees with the guess: core.worktree names another work tree", async () => {
    const repo = dirtyRepo();
    const elsewhere = tempDir();
    mkdirSync(join(elsewhere, 'dir'));
    writeFileSync(join(elsewhere, 'a.txt'), 'elsewhere\n');
    writeFileSync(join(elsewhere, 'dir', 'b.txt'), 'bee\n');
    repo.git('config', 'core.worktree', elsewhere);
    const early = await startEarlyDiff(repo.root, spawner, { patch: true });
    // Run from the repository's directory, git works on the other tree.
    const { located, status } = await firstRound(repo.root);
    expect(located.root).toBe(elsewhere);
    expect(status.entries.map((e) => e.path)).toEqual(['a.txt', 'dir/b.txt']);
    expect(await early!.takeIf(located, status)).toBeNull();
  });

  it('reads HEAD from the disk as git does: a branch loose or packed, detached; nothing it does not read', async () => {
    const repo = dirtyRepo();
    const gitDir = join(repo.root, '.git');
    const head = repo.git('rev-parse', 'HEAD');
    expect(await readHeadCommit(gitDir)).toBe(head);
    repo.git('pack-refs', '--all');
    expect(await readHeadCommit(gitDir)).toBe(head);
    repo.git('checkout', '-q', '--detach');
    expect(await readHeadCommit(gitDir)).toBe(head);
    repo.git('checkout', '-q', '-b', 'unborn-not', head);
    repo.git('symbolic-ref', 'HEAD', 'refs/heads/never-made');
    expect(await readHeadCommit(gitDir)).toBeNull();
    // A ref name that would climb out of the git directory is not read.
    writeFileSync(join(gitDir, 'HEAD'), 'ref: refs/../../outside\n');
    expect(await readHeadCommit(gitDir)).toBeNull();
    writeFileSync(join(gitDir, 'HEAD'), 'garbage\n');
    expect(await readHeadCommit(gitDir)).toBeNull();
    expect(await readHeadCommit(join(tempDir(), 'none'))).toBeNull();
  });

  it('a .git that is a symlink to a directory is not guessed (git may resolve it elsewhere)', async () => {
    const repo = dirtyRepo();
    const moved = join(tempDir(), 'moved.git');
    renameSync(join(repo.root, '.git'), moved);
    symlinkSync(moved, join(repo.root, '.git'));
    expect(await guessRepository(repo.root)).toBeNull();
    expect(stableCapture(await captureWorkspaceWithPatch(repo.root, { spawner }))).toEqual(stableCapture(await captureWorkspaceWithPatch(repo.root)));
  });
});
