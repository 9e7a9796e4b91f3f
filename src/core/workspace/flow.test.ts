import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RehydrateRequest } from '../../shared/workspace.js';
import { landNewSession } from '../handoff/send.js';
import { openStore } from '../store/index.js';
import type { SessionStore } from '../store/types.js';
import { captureWorkspace } from './capture.js';
import { fileDiff, listDiffFiles } from './file-diff.js';
import { planRehydration } from './plan.js';
import { readSessionPatch, readSessionWorkspace } from './session-workspace.js';
import { takeHandedOffVersion } from './take-file.js';
import { cleanupTemp, makeRepo, tempDir } from './test-support/repo.js';
import { verifyWorkspace } from './verify.js';
import { defaultWorktreeDir, rehydrateIntoWorktree } from './worktree.js';

/** The calls the host's workspace channels make, in the order the UI makes them. */
function flow(store: SessionStore) {
  const snapshotOf = async (id: string) => (await readSessionWorkspace(store, id))!;
  const status = async (id: string) => {
    const snapshot = await snapshotOf(id);
    const verification = await verifyWorkspace(snapshot, snapshot.git!.root);
    return { verification, plan: planRehydration(verification, snapshot, id) };
  };
  return {
    status,
    files: async (id: string) => listDiffFiles(await snapshotOf(id)),
    diff: async (id: string, path: string, options: { against?: 'head' | 'disk' } = {}) => {
      const snapshot = await snapshotOf(id);
      return fileDiff({ snapshot, patch: await readSessionPatch(store, id, snapshot), path, ...options });
    },
    rehydrate: async (request: RehydrateRequest) => {
      if (request.action === 'take-file') return { log: [await takeHandedOffVersion(store, request.sessionId, request.path)] };
      const snapshot = await snapshotOf(request.sessionId);
      const root = (await status(request.sessionId)).verification.targetRoot ?? snapshot.git!.root;
      const patch = (await readSessionPatch(store, request.sessionId, snapshot))!;
      return rehydrateIntoWorktree(root, snapshot.git!.head, patch, request.targetDir ?? defaultWorktreeDir(root, request.sessionId));
    },
  };
}

afterAll(cleanupTemp);

describe('the workspace flow the UI drives (status, diff, rehydrate)', () => {
  it('hand off three changed files → list three, show one, see drift, take it back, then rebuild in a worktree', async () => {
    const repo = makeRepo();
    repo.write('src/a.ts', 'export const a = 1;\n');
    repo.write('src/b.ts', 'export const b = 1;\n');
    repo.commitAll('base');
    repo.write('src/a.ts', 'export const a = 2;\n');
    repo.write('src/b.ts', 'export const b = 2;\n');
    repo.write('README.md', '# new\n');
    const store = await openStore(join(tempDir(), 'store'));
    try {
      const session = await landNewSession(store, { cwd: repo.root, title: 'three files', messages: [{ role: 'user', content: 'go' }] });
      const service = flow(store);

      const list = await service.files(session.id);
      expect(list.files.map((f) => f.path)).toEqual(['README.md', 'src/a.ts', 'src/b.ts']);
      const diff = await service.diff(session.id, 'src/a.ts');
      expect(diff).toMatchObject({ original: { kind: 'text', text: 'export const a = 1;\n' }, modified: { kind: 'text', text: 'export const a = 2;\n' } });
      expect((await service.status(session.id)).verification.status).toBe('complete');

      repo.write('src/b.ts', 'export const b = 99; // changed on disk after the handoff\n');
      const partial = await service.status(session.id);
      expect(partial.verification.status).toBe('partial');
      expect(partial.verification.drifted.map((d) => d.path)).toEqual(['src/b.ts']);
      expect(partial.plan).toMatchObject({ kind: 'per-file', files: [{ path: 'src/b.ts', action: 'write' }] });
      const against = await service.diff(session.id, 'src/b.ts', { against: 'disk' });
      expect(against.original).toMatchObject({ text: 'export const b = 99; // changed on disk after the handoff\n' });

      const take = await service.rehydrate(RehydrateRequest.parse({ action: 'take-file', sessionId: session.id, path: 'src/b.ts' }));
      expect(take.log[0]).toMatchObject({ step: 'take-file', result: 'applied' });
      expect((await service.status(session.id)).verification.status).toBe('complete');

      // The person moved to another branch: their tree is left alone, a worktree is offered.
      repo.git('stash', '-q', '--include-untracked');
      repo.git('checkout', '-q', '-b', 'other');
      const none = await service.status(session.id);
      expect(none.plan).toMatchObject({ kind: 'worktree', repoRoot: repo.root });
      const targetDir = join(tempDir(), 'rebuilt');
      const rebuilt = await service.rehydrate({ action: 'worktree', sessionId: session.id, targetDir });
      expect(rebuilt.log.map((e) => `${e.step}:${e.result}`)).toEqual(['worktree-add:applied', 'patch-apply:applied']);
      const files = (await captureWorkspace(targetDir)).git!.files.map((f) => [f.path, f.sha256]);
      expect(files).toEqual(list.files.map((f) => [f.path, f.sha256]));
      const again = await service.rehydrate({ action: 'worktree', sessionId: session.id, targetDir });
      expect(again.log.map((e) => e.result)).toEqual(['unchanged', 'unchanged']);
      expect(repo.git('status', '--porcelain')).toBe('');
    } finally {
      await store.close();
    }
  });
});
