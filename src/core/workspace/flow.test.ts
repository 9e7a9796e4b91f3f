import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RehydrateRequest } from '../../shared/workspace.js';
import { landAndReadBack } from '../handoff/send.js';
import { createWorkspaceHandlers } from '../host/workspace-handlers.js';
import { openStore } from '../store/index.js';
import { captureWorkspace } from './capture.js';
import { cleanupTemp, makeRepo, tempDir } from './test-support/repo.js';

/** The host's own workspace handlers (the UI's workspace:* channels), called in the order the UI calls them. */

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
      const session = (await landAndReadBack(store, { cwd: repo.root, title: 'three files', messages: [{ role: 'user', content: 'go' }] })).session;
      const service = createWorkspaceHandlers(store);
      const sessionId = session.id;

      const list = await service.diff({ sessionId });
      expect(list.files.map((f) => f.path)).toEqual(['README.md', 'src/a.ts', 'src/b.ts']);
      const diff = await service.file({ sessionId, path: 'src/a.ts' });
      expect(diff).toMatchObject({ original: { kind: 'text', text: 'export const a = 1;\n' }, modified: { kind: 'text', text: 'export const a = 2;\n' } });
      expect(await service.status({ sessionId })).toMatchObject({ hasWorkspace: true, verification: { status: 'complete' } });

      repo.write('src/b.ts', 'export const b = 99; // changed on disk after the handoff\n');
      const partial = await service.status({ sessionId });
      expect(partial.verification!.status).toBe('partial');
      expect(partial.verification!.drifted.map((d) => d.path)).toEqual(['src/b.ts']);
      expect(partial.plan).toMatchObject({ kind: 'per-file', files: [{ path: 'src/b.ts', action: 'write' }] });
      const against = await service.file({ sessionId, path: 'src/b.ts', against: 'disk' });
      expect(against.original).toMatchObject({ text: 'export const b = 99; // changed on disk after the handoff\n' });

      const take = await service.rehydrate(RehydrateRequest.parse({ action: 'take-file', sessionId, path: 'src/b.ts' }));
      expect(take.log[0]).toMatchObject({ step: 'take-file', result: 'applied' });
      expect((await service.status({ sessionId })).verification!.status).toBe('complete');

      // The person moved to another branch: their tree is left alone, a worktree is offered.
      repo.git('stash', '-q', '--include-untracked');
      repo.git('checkout', '-q', '-b', 'other');
      const none = await service.status({ sessionId });
      expect(none.plan).toMatchObject({ kind: 'worktree', repoRoot: repo.root });
      const targetDir = join(tempDir(), 'rebuilt');
      const rebuilt = await service.rehydrate({ action: 'worktree', sessionId, targetDir });
      expect(rebuilt.log.map((e) => `${e.step}:${e.result}`)).toEqual(['worktree-add:applied', 'patch-apply:applied']);
      const files = (await captureWorkspace(targetDir)).git!.files.map((f) => [f.path, f.sha256]);
      expect(files).toEqual(list.files.map((f) => [f.path, f.sha256]));
      const again = await service.rehydrate({ action: 'worktree', sessionId, targetDir });
      expect(again.log.map((e) => e.result)).toEqual(['unchanged', 'unchanged']);
      expect(repo.git('status', '--porcelain')).toBe('');

      // Every confirmed step is logged in session.json, in order (the copy this test used to carry did not log).
      const doc = await store.getSession(sessionId);
      expect((doc.rehydrationLog as { step: string; result: string }[]).map((e) => `${e.step}:${e.result}`)).toEqual([
        'take-file:applied',
        'worktree-add:applied',
        'patch-apply:applied',
        'worktree-add:unchanged',
        'patch-apply:unchanged',
      ]);
    } finally {
      await store.close();
    }
  });
});
