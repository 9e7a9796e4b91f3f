import { existsSync, lstatSync, rmSync, readFileSync, readlinkSync, statSync, symlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/index.js';
import type { SessionStore } from '../store/types.js';
import { captureWorkspace, captureWorkspaceWithPatch } from './capture.js';
import { readSessionWorkspace, storeWorkspacePatch } from './session-workspace.js';
import { takeHandedOffVersion } from './take-file.js';
import { cleanupTemp, makeRepo, sha256, tempDir } from './test-support/repo.js';
import { verifyWorkspace } from './verify.js';
import { APPLIED_MARKER, defaultWorktreeDir, rehydrateIntoWorktree } from './worktree.js';

const besideRepos: string[] = [];
afterAll(() => {
  cleanupTemp();
  for (const dir of besideRepos) rmSync(dir, { recursive: true, force: true });
});

const BINARY = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 256));

/** Every kind of dirty file, to be reproduced elsewhere byte for byte. */
function dirtyRepo() {
  const repo = makeRepo();
  repo.write('src/app.ts', 'export const a = 1;\n');
  repo.write('old name.txt', 'one\ntwo\nthree\nfour\nfive\n');
  repo.write('remove-me.txt', 'bye\n');
  repo.write('run.sh', '#!/bin/sh\n');
  repo.write('blob.bin', BINARY);
  repo.write('link-target.txt', 'target\n');
  const head = repo.commitAll('base');
  repo.write('src/app.ts', 'export const a = 2;\nexport const b = 3;\n');
  repo.git('mv', 'old name.txt', 'new name.txt');
  repo.write('new name.txt', 'one\ntwo\nthree\nfour\nfive\nsix\n');
  unlinkSync(join(repo.root, 'remove-me.txt'));
  repo.write('run.sh', '#!/bin/sh\necho run\n', 0o755);
  repo.write('blob.bin', Buffer.concat([BINARY.subarray(0, 1000), Buffer.from([0, 0, 0]), BINARY.subarray(1000)]));
  repo.write('crlf.txt', 'windows\r\nline\r\n');
  repo.write('line\nbreak ü.txt', 'odd name\n');
  repo.write('nested/new.bin', Buffer.from([0, 1, 2, 3]));
  symlinkSync('link-target.txt', join(repo.root, 'a-link'));
  return { repo, head };
}

/** path → sha256 of every changed file (what "reproduces the dirty files" means). */
function fingerprint(files: { path: string; sha256: string | null; newMode: string | null; status: string }[]) {
  return Object.fromEntries(files.map((f) => [f.path, `${f.status}:${f.sha256}:${f.newMode}`]));
}

async function withStore<T>(work: (store: SessionStore) => Promise<T>): Promise<T> {
  const store = await openStore(join(tempDir('baton-store-'), 'store'));
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

describe('rehydrateIntoWorktree', () => {
  it('reproduces the source’s dirty files byte for byte, leaves the source alone, and changes nothing the second time', async () => {
    const { repo, head } = dirtyRepo();
    const indexBefore = readFileSync(join(repo.root, '.git/index'));
    const { snapshot, patchBytes } = await captureWorkspaceWithPatch(repo.root);
    const target = defaultWorktreeDir(repo.root, 'sess-0123456789abcdef');
    expect(target).toBe(`${repo.root}-baton-89abcdef`);
    besideRepos.push(target); // beside the temp repo, outside the dirs cleanupTemp removes

    const first = await rehydrateIntoWorktree(repo.root, head, patchBytes!, target);
    expect(first.log.map((e) => `${e.step}:${e.result}`)).toEqual(['worktree-add:applied', 'patch-apply:applied']);
    const rebuilt = await captureWorkspace(target);
    expect(rebuilt.git!.head).toBe(head);
    expect(rebuilt.git!.worktree).toBe(true);
    expect(fingerprint(rebuilt.git!.files)).toEqual(fingerprint(snapshot.git!.files));
    expect(readFileSync(join(target, 'blob.bin')).equals(readFileSync(join(repo.root, 'blob.bin')))).toBe(true);
    expect(readFileSync(join(target, 'crlf.txt'), 'utf8')).toBe('windows\r\nline\r\n');
    expect(readlinkSync(join(target, 'a-link'))).toBe('link-target.txt');
    expect(statSync(join(target, 'run.sh')).mode & 0o111).not.toBe(0);

    const mtime = statSync(join(target, 'src/app.ts')).mtimeMs;
    const second = await rehydrateIntoWorktree(repo.root, head, patchBytes!, target);
    expect(second.log.map((e) => `${e.step}:${e.result}`)).toEqual(['worktree-add:unchanged', 'patch-apply:unchanged']);
    expect(statSync(join(target, 'src/app.ts')).mtimeMs).toBe(mtime);
    expect(fingerprint((await captureWorkspace(target)).git!.files)).toEqual(fingerprint(snapshot.git!.files));

    // The person's own tree and index are exactly as they were.
    expect(readFileSync(join(repo.root, '.git/index')).equals(indexBefore)).toBe(true);
    expect(fingerprint((await captureWorkspace(repo.root)).git!.files)).toEqual(fingerprint(snapshot.git!.files));
    expect(readFileSync(join(repo.root, '.git/worktrees', `${repo.root.split('/').pop()}-baton-89abcdef`, APPLIED_MARKER), 'utf8').trim()).toBe(sha256(patchBytes!));
  });

  it('recognises a patch applied by an interrupted run (no marker yet) as done', async () => {
    const { repo, head } = dirtyRepo();
    const { patchBytes } = await captureWorkspaceWithPatch(repo.root);
    const target = join(tempDir(), 'wt');
    await rehydrateIntoWorktree(repo.root, head, patchBytes!, target);
    const marker = join(repo.root, '.git/worktrees/wt', APPLIED_MARKER);
    unlinkSync(marker);
    const again = await rehydrateIntoWorktree(repo.root, head, patchBytes!, target);
    expect(again.log.map((e) => e.result)).toEqual(['unchanged', 'unchanged']);
    expect(existsSync(marker)).toBe(true);
  });

  it('refuses a directory holding other files, an unknown commit, and an unborn HEAD', async () => {
    const { repo, head } = dirtyRepo();
    const { patchBytes } = await captureWorkspaceWithPatch(repo.root);
    const busy = makeRepo();
    busy.write('mine.txt', 'the person’s own files\n');
    await expect(rehydrateIntoWorktree(repo.root, head, patchBytes!, busy.root)).rejects.toMatchObject({ code: 'WORKSPACE_TARGET_NOT_EMPTY', path: busy.root });
    expect(readFileSync(join(busy.root, 'mine.txt'), 'utf8')).toBe('the person’s own files\n');
    await expect(rehydrateIntoWorktree(repo.root, 'f'.repeat(40), patchBytes!, join(tempDir(), 'x'))).rejects.toMatchObject({ code: 'WORKSPACE_HEAD_NOT_FOUND' });
    await expect(rehydrateIntoWorktree(repo.root, null, patchBytes!, join(tempDir(), 'y'))).rejects.toMatchObject({ code: 'WORKSPACE_UNBORN_HEAD' });
  });
});

describe('takeHandedOffVersion', () => {
  /** A session whose handed-off workspace is stored like `baton handoff` does. */
  async function landed(store: SessionStore) {
    const { repo, head } = dirtyRepo();
    const captured = await captureWorkspaceWithPatch(repo.root);
    const session = await store.createSession({ cwd: repo.root, gitRoot: repo.root, branch: 'main', title: 't', source: { tool: 'baton' }, holder: 'terminal' });
    const workspace = await storeWorkspacePatch(store, session.id, captured);
    await store.update(session.id, session.revision, (doc) => ({ ...doc, workspace }));
    return { repo, head, sessionId: session.id, workspace };
  }

  it('restores only the confirmed file, keeps the replaced bytes as an artifact, and is idempotent', async () => {
    await withStore(async (store) => {
      const { repo, sessionId, workspace } = await landed(store);
      expect((await readSessionWorkspace(store, sessionId))!.git!.patch!.ref).toBe(workspace.git!.patch!.ref);
      repo.write('src/app.ts', 'edited by someone else\n');
      repo.write('new name.txt', 'also edited\n');
      const verification = await verifyWorkspace(workspace, repo.root);
      expect(verification.status).toBe('partial');
      expect(verification.drifted.map((d) => d.path)).toEqual(['new name.txt', 'src/app.ts']);

      const entry = await takeHandedOffVersion(store, sessionId, 'src/app.ts');
      expect(entry).toMatchObject({ step: 'take-file', result: 'applied', path: 'src/app.ts', previousSha256: sha256('edited by someone else\n') });
      expect(repo.read('src/app.ts').toString()).toBe('export const a = 2;\nexport const b = 3;\n');
      expect(Buffer.from(await store.readArtifact(sessionId, entry.backupRef!)).toString()).toBe('edited by someone else\n');
      // The other drifted file was not confirmed: untouched.
      expect(repo.read('new name.txt').toString()).toBe('also edited\n');

      const again = await takeHandedOffVersion(store, sessionId, 'src/app.ts');
      expect(again).toMatchObject({ result: 'unchanged', backupRef: null });
      const after = await verifyWorkspace(workspace, repo.root);
      expect(after.drifted.map((d) => d.path)).toEqual(['new name.txt']);
    });
  });

  it('restores binary, executable, renamed-away, deleted and HEAD-only files', async () => {
    await withStore(async (store) => {
      const { repo, sessionId, workspace } = await landed(store);
      repo.write('blob.bin', Buffer.from('clobbered'));
      repo.write('run.sh', '#!/bin/sh\necho run\n', 0o644);
      repo.write('old name.txt', 'came back\n');
      repo.write('remove-me.txt', 'came back too\n');
      repo.write('link-target.txt', 'changed only at the target\n');
      const drifted = (await verifyWorkspace(workspace, repo.root)).drifted.map((d) => d.path);
      expect(drifted).toEqual(['blob.bin', 'link-target.txt', 'old name.txt', 'remove-me.txt', 'run.sh']);
      for (const path of drifted) expect((await takeHandedOffVersion(store, sessionId, path)).result).toBe('applied');
      const after = await verifyWorkspace(workspace, repo.root);
      expect(after.status).toBe('complete');
      expect(existsSync(join(repo.root, 'old name.txt'))).toBe(false);
      expect(existsSync(join(repo.root, 'remove-me.txt'))).toBe(false);
      expect(repo.read('link-target.txt').toString()).toBe('target\n');
      expect(lstatSync(join(repo.root, 'run.sh')).mode & 0o111).not.toBe(0);
      for (const path of drifted) expect((await takeHandedOffVersion(store, sessionId, path)).result).toBe('unchanged');
    });
  });

  it('says plainly when the patch was too large to store', async () => {
    await withStore(async (store) => {
      const { repo } = dirtyRepo();
      const captured = await captureWorkspaceWithPatch(repo.root, { patchMaxBytes: 100 });
      expect(captured.patchBytes).toBeNull();
      const session = await store.createSession({ cwd: repo.root, gitRoot: repo.root, branch: 'main', title: 't', source: { tool: 'baton' }, holder: 'terminal', extra: { workspace: captured.snapshot } });
      expect((await storeWorkspacePatch(store, session.id, captured)).git!.patch!.ref).toBeNull();
      repo.write('src/app.ts', 'drifted\n');
      await expect(takeHandedOffVersion(store, session.id, 'src/app.ts')).rejects.toMatchObject({ code: 'WORKSPACE_PATCH_NOT_STORED', path: 'src/app.ts' });
      expect(repo.read('src/app.ts').toString()).toBe('drifted\n');
    });
  });

  it('refuses paths outside the repository', async () => {
    await withStore(async (store) => {
      const { sessionId } = await landed(store);
      for (const path of ['../escape.txt', '/etc/passwd', '.git/config', 'a/../../b', '']) {
        await expect(takeHandedOffVersion(store, sessionId, path)).rejects.toMatchObject({ code: 'WORKSPACE_UNSAFE_PATH' });
      }
    });
  });
});
