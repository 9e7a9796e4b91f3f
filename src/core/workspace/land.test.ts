import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Manifest } from '../../shared/manifest.js';
import { buildManifest } from '../handoff/build-manifest.js';
import { landAndReadBack } from '../handoff/send.js';
import { openStore } from '../store/index.js';
import { delegatingFs } from '../fs/delegating-fs.js';
import { nodeDurableFs } from '../fs/durable-fs.js';
import { captureWorkspace } from './capture.js';
import { WORKSPACE_REUSE_MS, reuseOrCaptureWorkspace } from './land.js';
import { readSessionPatch, readSessionWorkspace } from './session-workspace.js';
import { cleanupTemp, makeRepo, sha256, tempDir } from './test-support/repo.js';

afterAll(cleanupTemp);

describe('landing the workspace with the session', () => {
  it('stores the patch under artifacts/, keeps the file list in session.json, and fills the manifest', async () => {
    const repo = makeRepo();
    repo.write('a.ts', 'a\n');
    repo.commitAll('base');
    repo.write('a.ts', 'a changed\n');
    repo.write('b.ts', 'new\n');
    const store = await openStore(join(tempDir(), 'store'));
    try {
      const session = (await landAndReadBack(store, { cwd: repo.root, title: 'work', messages: [{ role: 'user', content: 'hi' }] })).session;
      const workspace = (await readSessionWorkspace(store, session.id))!;
      const git = workspace.git!;
      expect(git.files.map((f) => ({ path: f.path, status: f.status, sha256: f.sha256 }))).toEqual([
        { path: 'a.ts', status: 'modified', sha256: sha256('a changed\n') },
        { path: 'b.ts', status: 'untracked', sha256: sha256('new\n') },
      ]);
      expect(git.patch!.ref).toBe(`artifacts/${git.patch!.sha256}.patch`);
      const patch = await readSessionPatch(store, session.id, workspace);
      expect(sha256(patch!)).toBe(git.patch!.sha256);

      const doc = await store.getSession(session.id);
      const manifest = Manifest.parse(buildManifest({ handoffId: 'h-1', session: doc, records: await store.readMessages(session.id), workspace, client: { name: 't', version: '0' } }));
      expect(manifest.workspace).toMatchObject({ root: repo.root, requires_rehydration: true, git: { diff_sha256: git.diffSha256, patch_ref: git.patch!.ref, dirty_files: ['a.ts'], untracked_files: ['b.ts'] } });
      expect(JSON.stringify(manifest)).not.toContain('a changed'); // references and hashes only

      // Offered right away: the landed capture is reused; later, the disk is captured again.
      expect(await reuseOrCaptureWorkspace(store, doc)).toEqual(workspace);
      repo.write('a.ts', 'changed again\n');
      const later = new Date(Date.parse(workspace.capturedAt!) + WORKSPACE_REUSE_MS + 1);
      const fresh = await reuseOrCaptureWorkspace(store, doc, later);
      expect(fresh.git!.files[0]!.sha256).toBe(sha256('changed again\n'));
      expect((await readSessionWorkspace(store, session.id))!.git!.diffSha256).toBe(fresh.git!.diffSha256);
    } finally {
      await store.close();
    }
  });

  it('lands the patch with the session: session.json is written once, already naming the stored patch', async () => {
    const repo = makeRepo();
    repo.write('a.ts', 'a\n');
    repo.commitAll('base');
    repo.write('a.ts', 'a changed\n');
    const sessionJsonWrites: string[] = [];
    const counting = delegatingFs(nodeDurableFs, {
      rename: (from, to) => {
        if (to.endsWith('/session.json')) sessionJsonWrites.push(to);
        return nodeDurableFs.rename(from, to);
      },
    });
    const store = await openStore(join(tempDir(), 'store'), { fs: counting, keyStore: null });
    try {
      const { session } = await landAndReadBack(store, { cwd: repo.root, title: 'work', messages: [{ role: 'user', content: 'hi' }] });
      // Once, in the staging directory: no rewrite afterwards to add the patch's ref.
      expect(sessionJsonWrites).toHaveLength(1);
      expect(sessionJsonWrites[0]).toMatch(/\.creating\/session\.json$/);
      const stored = await store.getSession(session.id);
      expect(stored.revision).toBe(session.revision);
      const git = stored.workspace!.git!;
      expect(git.patch!.ref).toBe(`artifacts/${git.patch!.sha256}.patch`);
      const patch = await readSessionPatch(store, session.id, stored.workspace!);
      expect(sha256(patch!)).toBe(git.patch!.sha256);
      expect(patch!.toString('utf8')).toContain('+a changed');
    } finally {
      await store.close();
    }
  });

  it('lands a session outside git with git: null and no rehydration', async () => {
    const dir = tempDir();
    const store = await openStore(join(tempDir(), 'store'));
    try {
      const session = (await landAndReadBack(store, { cwd: dir, title: 'plain', messages: [] })).session;
      expect((await readSessionWorkspace(store, session.id))!.git).toBeNull();
      const manifest = buildManifest({ handoffId: 'h-2', session, records: [], workspace: await captureWorkspace(dir), client: { name: 't', version: '0' } });
      expect(manifest.workspace).toEqual({ root: dir, git: null, requires_rehydration: false });
    } finally {
      await store.close();
    }
  });
});
