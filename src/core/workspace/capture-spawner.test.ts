import { afterAll, describe, expect, it, vi } from 'vitest';

/** Every child process this (host) process starts itself: spawn and execFile, the two ways git is started. */
const started = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:child_process', async (importOriginal) => {
  const { countingChildProcess } = await import('./test-support/counting-child-process.js');
  return countingChildProcess(await importOriginal<typeof import('node:child_process')>(), started);
});

const { captureWorkspaceWithPatch } = await import('./capture.js');
const { GitSpawner } = await import('./git-spawner.js');
const { cleanupTemp, makeRepo } = await import('./test-support/repo.js');

const spawner = new GitSpawner().start();
afterAll(() => {
  spawner.close();
  cleanupTemp();
});

/** A repository with a tracked change, a staged one, an untracked file and a binary one: the temporary index's path. */
function dirtyRepo() {
  const repo = makeRepo();
  repo.write('a.txt', 'one\n');
  repo.write('staged.txt', 'before\n');
  repo.commitAll('start');
  repo.write('a.txt', 'two\n');
  repo.write('staged.txt', 'after\n');
  repo.git('add', 'staged.txt');
  repo.write("new 'file'.txt", 'untracked\n');
  repo.write('bin.dat', Buffer.from([0, 1, 2, 255, 0, 10]));
  return repo;
}

// When it was captured (the snapshot's time, the observation's clock) differs from one capture to the next.
const stable = (captured: Awaited<ReturnType<typeof captureWorkspaceWithPatch>>) => ({ ...captured, snapshot: { ...captured.snapshot, capturedAt: '' }, observed: captured.observed && { ...captured.observed, at: 0 } });

describe.skipIf(process.platform === 'win32')("capture in a host: both rounds of git run in the host's spawner (issue 20)", () => {
  it('a dirty capture starts no child of the host (its temporary index batch too) and answers as without the spawner', async () => {
    const repo = dirtyRepo();
    const before = { host: started.count, batches: spawner.batchesRun };
    const viaSpawner = await captureWorkspaceWithPatch(repo.root, { spawner });
    expect(started.count - before.host).toBe(0);
    // Round one (where, status, remotes, gitlinks) and round two (add, then both diffs).
    expect(spawner.batchesRun - before.batches).toBe(2);
    const spawned = await captureWorkspaceWithPatch(repo.root);
    expect(started.count - before.host).toBeGreaterThan(0);
    expect(stable(viaSpawner)).toEqual(stable(spawned));
    expect(viaSpawner.snapshot.git!.files.map((f) => f.path).sort()).toEqual(['a.txt', 'bin.dat', "new 'file'.txt", 'staged.txt']);
    expect(viaSpawner.patchBytes!.toString()).toContain('+untracked');
  });

  it('a patch past the cap is hashed whole through the spawner, as from a spawn', async () => {
    const repo = dirtyRepo();
    repo.write('big.txt', 'x'.repeat(200_000));
    const before = started.count;
    const viaSpawner = await captureWorkspaceWithPatch(repo.root, { spawner, patchMaxBytes: 1024 });
    expect(started.count - before).toBe(0);
    expect(viaSpawner.patchBytes).toBeNull();
    const spawned = await captureWorkspaceWithPatch(repo.root, { patchMaxBytes: 1024 });
    expect(viaSpawner.snapshot.git!.patch).toEqual(spawned.snapshot.git!.patch);
    expect(viaSpawner.snapshot.git!.patch!.size).toBeGreaterThan(200_000);
  });
});
