import { chmodSync, existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureWorkspaceWithPatch } from './capture.js';
import { GitSpawner } from './git-spawner.js';
import { listAndPatchRun } from './patch.js';
import { INDEX_COPY_PREFIX, onIndexCopy, withWorkingTreeIndex } from './temp-index.js';
import { cleanupTemp, git, makeRepo, tempDir, type TempRepo } from './test-support/repo.js';

const spawner = new GitSpawner().start();
afterAll(() => {
  spawner.close();
  cleanupTemp();
});

/**
 * Which way the capture took, seen from the repository: the temporary index's `git add` writes
 * the blob of every changed file into the object database; `git diff HEAD` writes none.
 */
function blobWritten(repo: TempRepo, path: string): boolean {
  const blob = git(repo.root, 'hash-object', '--', path); // hashes only (no -w)
  try {
    git(repo.root, 'cat-file', '-e', blob);
    return true;
  } catch {
    return false;
  }
}

/** A committed repository with a tracked change, a staged one, a rename and a mode change: nothing untracked. */
function trackedChanges(): TempRepo {
  const repo = makeRepo();
  repo.write('a.txt', 'one\n');
  repo.write('staged.txt', 'before\n');
  repo.write('old name.txt', 'line 1\nline 2\nline 3\nline 4\n');
  repo.write('run.sh', '#!/bin/sh\n');
  repo.write('same.txt', 'unchanged\n');
  repo.commitAll('start');
  repo.write('a.txt', `two ${Math.random()}\n`);
  repo.write('staged.txt', `after ${Math.random()}\n`);
  repo.git('add', 'staged.txt');
  repo.write('staged.txt', `after again ${Math.random()}\n`);
  repo.git('mv', 'old name.txt', 'new name.txt');
  chmodSync(join(repo.root, 'run.sh'), 0o755);
  return repo;
}

// When it was captured (the snapshot's time, the observation's clock) differs from one capture to the next.
const stable = (captured: Awaited<ReturnType<typeof captureWorkspaceWithPatch>>) => ({ ...captured, snapshot: { ...captured.snapshot, capturedAt: '' }, observed: captured.observed && { ...captured.observed, at: 0 } });

describe.skipIf(process.platform === 'win32')('capture: HEAD against the work tree where nothing is untracked (issue 20)', () => {
  it('takes no temporary index (no blob written) and answers exactly what the temporary index answers', async () => {
    for (const viaSpawner of [undefined, spawner]) {
      const repo = trackedChanges();
      const batches = spawner.batchesRun;
      const captured = await captureWorkspaceWithPatch(repo.root, { spawner: viaSpawner });
      expect(blobWritten(repo, 'a.txt')).toBe(false);
      if (viaSpawner) expect(spawner.batchesRun - batches).toBe(2); // round one, then the two diffs
      const g = captured.snapshot.git!;
      const full = await withWorkingTreeIndex(repo.root, join(repo.root, '.git', 'index'), g.head, [], () => listAndPatchRun(repo.root, g.head, { patch: true }));
      expect(blobWritten(repo, 'a.txt')).toBe(true); // the proof's own way does write it
      expect(captured.patchBytes!.equals(full.patch!.bytes!)).toBe(true);
      expect(g.patch!.sha256).toBe(full.patch!.sha256);
      expect(g.files.map((f) => [f.path, f.status, f.oldPath])).toEqual(full.entries.map((e) => [e.path, e.status, e.oldPath]));
      expect(g.files.map((f) => f.path).sort()).toEqual(['a.txt', 'new name.txt', 'run.sh', 'staged.txt']);
      expect(captured.snapshot.warnings).toEqual([]);
    }
  });

  it("never writes the person's index, though porcelain `git diff` refreshes the index it reads", async () => {
    const repo = trackedChanges();
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(repo.root, 'same.txt'), later, later); // stat-dirty, same bytes: git diff's refresh would rewrite the index
    const index = join(repo.root, '.git', 'index');
    const before = { bytes: readFileSync(index), mtime: statSync(index).mtimeMs };
    await captureWorkspaceWithPatch(repo.root, { spawner });
    expect(blobWritten(repo, 'a.txt')).toBe(false);
    expect({ bytes: readFileSync(index), mtime: statSync(index).mtimeMs }).toEqual(before);
  });

  it('keeps the temporary index when a file is untracked, and where git may convert line endings', async () => {
    const untracked = trackedChanges();
    untracked.write('new.txt', 'new\n');
    const autocrlf = trackedChanges();
    autocrlf.git('config', 'core.autocrlf', 'input');
    const attributes = trackedChanges();
    attributes.write('sub/.gitattributes', '*.txt text\n');
    attributes.git('add', 'sub/.gitattributes');
    const infoAttributes = trackedChanges();
    mkdirSync(join(infoAttributes.root, '.git', 'info'), { recursive: true });
    writeFileSync(join(infoAttributes.root, '.git', 'info', 'attributes'), '* text=auto\n');
    const attributesFile = trackedChanges();
    attributesFile.git('config', 'core.attributesFile', join(attributesFile.root, 'none'));
    for (const [name, repo] of Object.entries({ untracked, autocrlf, attributes, infoAttributes, attributesFile })) {
      await captureWorkspaceWithPatch(repo.root, { spawner });
      expect(blobWritten(repo, 'a.txt'), name).toBe(true);
    }
    // The same kind of tree with none of these takes the short way (the control).
    const plain = trackedChanges();
    await captureWorkspaceWithPatch(plain.root, { spawner });
    expect(blobWritten(plain, 'a.txt')).toBe(false);
  });

  it('keeps the temporary index for an intent-to-add entry, one hidden from status, and an unborn HEAD', async () => {
    const intent = trackedChanges();
    intent.write('later.txt', 'later\n');
    intent.git('add', '-N', 'later.txt');
    // Marked assume-unchanged, an intent-to-add entry is invisible to status, and `git diff HEAD`
    // would list it as an empty new file where the temporary index lists nothing.
    const hiddenIntent = trackedChanges();
    hiddenIntent.write('hidden.txt', 'hidden\n');
    hiddenIntent.git('add', '-N', 'hidden.txt');
    hiddenIntent.git('update-index', '--assume-unchanged', 'hidden.txt');
    const skipWorktree = trackedChanges();
    skipWorktree.git('update-index', '--skip-worktree', 'same.txt');
    const unborn = makeRepo();
    unborn.write('a.txt', `first ${Math.random()}\n`);
    unborn.git('add', 'a.txt');
    unborn.write('a.txt', `first, changed ${Math.random()}\n`);
    for (const [name, repo] of Object.entries({ intent, hiddenIntent, skipWorktree, unborn })) {
      const captured = await captureWorkspaceWithPatch(repo.root, { spawner });
      expect(blobWritten(repo, 'a.txt'), name).toBe(true);
      expect(captured.patchBytes!.length, name).toBeGreaterThan(0);
      expect(captured.snapshot.git!.files.map((f) => f.path), name).not.toContain('hidden.txt');
    }
  });

  it('answers a split index as the temporary index does (the copy still finds its shared index)', async () => {
    const repo = makeRepo();
    repo.write('a.txt', 'one\n');
    repo.write('b.txt', 'b\n');
    repo.commitAll('start');
    repo.git('update-index', '--split-index');
    repo.write('a.txt', `two ${Math.random()}\n`);
    repo.git('add', 'a.txt');
    repo.write('a.txt', `three ${Math.random()}\n`);
    repo.write('b.txt', `b changed ${Math.random()}\n`);
    const captured = await captureWorkspaceWithPatch(repo.root, { spawner });
    const g = captured.snapshot.git!;
    const full = await withWorkingTreeIndex(repo.root, join(repo.root, '.git', 'index'), g.head, [], () => listAndPatchRun(repo.root, g.head, { patch: true }));
    expect(captured.patchBytes!.equals(full.patch!.bytes!)).toBe(true);
    expect(g.files.map((f) => f.path)).toEqual(['a.txt', 'b.txt']);
  });

  it('gives the same snapshot with and without the host spawner', async () => {
    const repo = trackedChanges();
    expect(stable(await captureWorkspaceWithPatch(repo.root, { spawner }))).toEqual(stable(await captureWorkspaceWithPatch(repo.root)));
  });
});

describe.skipIf(process.platform === 'win32')('the copies of the index a capture diffs on', () => {
  /** Runs `body` with os.tmpdir() pointing at a directory of its own; answers the index copies left there (a host's batch directories go in the background: git-spawner.ts). */
  async function leftIn(body: () => Promise<unknown>): Promise<string[]> {
    const own = tempDir('baton-index-copies-');
    const before = process.env.TMPDIR;
    process.env.TMPDIR = own;
    try {
      expect(tmpdir()).toBe(own); // else this would check a directory nothing was put in
      await body();
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
    return readdirSync(own).filter((name) => name.startsWith(INDEX_COPY_PREFIX));
  }

  it('are gone when the capture returns, both ways (a CLI may exit right after it)', async () => {
    const repo = trackedChanges();
    for (const options of [{ spawner }, {}]) expect(await leftIn(() => captureWorkspaceWithPatch(repo.root, options))).toEqual([]);
    repo.write('untracked.txt', 'new\n'); // the temporary index's way
    for (const options of [{ spawner }, {}]) expect(await leftIn(() => captureWorkspaceWithPatch(repo.root, options))).toEqual([]);
  });

  it('one holding more than the copy (a lock a killed git left) is still removed, in the background', async () => {
    const repo = trackedChanges();
    let copyDir = '';
    await onIndexCopy(join(repo.root, '.git', 'index'), async ({ GIT_INDEX_FILE }) => {
      copyDir = dirname(GIT_INDEX_FILE);
      writeFileSync(`${GIT_INDEX_FILE}.lock`, 'lock');
    });
    expect(copyDir).not.toBe('');
    await expect.poll(() => existsSync(copyDir), { timeout: 5_000 }).toBe(false);
  });
});

describe('the line counts of the changed files', () => {
  it("are the stored patch's, whatever diff.algorithm the person set, with the patch or without it", async () => {
    const repo = makeRepo();
    // Counted 3 added / 2 deleted by myers (the patch's algorithm), 4 / 3 by histogram.
    repo.write('f.txt', 'c\nc\na\n{\nc\na\nc\n');
    repo.commitAll('start');
    repo.write('f.txt', 'c\na\na\na\nc\ny\na\nc\n');
    git(repo.root, 'config', 'diff.algorithm', 'histogram');
    for (const patch of [true, false]) {
      const { snapshot } = await captureWorkspaceWithPatch(repo.root, { spawner, patch });
      expect(snapshot.git!.files.map((f) => [f.path, f.additions, f.deletions]), `patch: ${patch}`).toEqual([['f.txt', 3, 2]]);
    }
  });
});
