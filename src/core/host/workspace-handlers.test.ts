import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { landAndReadBack } from '../handoff/send.js';
import { openStore } from '../store/index.js';
import { MUTATE_CAS_RETRIES } from '../store/session-store.js';
import type { SessionStore } from '../store/types.js';
import { cleanupTemp, makeRepo, tempDir } from '../workspace/test-support/repo.js';
import { createWorkspaceHandlers } from './workspace-handlers.js';

/** The host's workspace channels on a real store and real git repositories; the full UI flow is in workspace/flow.test.ts. */
let store: SessionStore;
beforeEach(async () => {
  store = await openStore(join(tempDir(), 'store'));
});
afterEach(() => store.close());
afterAll(cleanupTemp);

async function handedOffRepo() {
  const repo = makeRepo();
  repo.write('a.txt', 'one\n');
  repo.commitAll('base');
  repo.write('a.txt', 'two\n');
  const session = (await landAndReadBack(store, { cwd: repo.root, title: 't', messages: [{ role: 'user', content: 'go' }] })).session;
  return { repo, sessionId: session.id };
}

/**
 * A store whose `mutate` lets a competing writer bump the revision (a real update on the real
 * store) between the read and the write, `races` times: the handler's log write then meets a real
 * CONFLICT from the store's compare-and-swap, and the store's one retry loop has to handle it.
 */
function racingStore(real: SessionStore, races: number): SessionStore {
  let left = races;
  return new Proxy(real, {
    get(target, key, receiver) {
      if (key !== 'mutate') return Reflect.get(target, key, receiver);
      return (id: string, change: Parameters<SessionStore['mutate']>[1]) =>
        real.mutate(id, async (doc) => {
          if (left > 0) {
            left -= 1;
            await real.update(id, doc.revision, (current) => ({ ...current, competing: left }));
          }
          return change(doc);
        });
    },
  });
}

describe('workspace handlers', () => {
  it('status of a session handed off outside git: no workspace, no plan, no error', async () => {
    const session = (await landAndReadBack(store, { cwd: tempDir(), title: 'plain', messages: [{ role: 'user', content: 'x' }] })).session;
    const handlers = createWorkspaceHandlers(store);
    expect(await handlers.status({ sessionId: session.id })).toEqual({ hasWorkspace: false, verification: null, plan: null });
  });

  it('diff, file and rehydrate of a session without a git workspace answer NOT_FOUND naming the session', async () => {
    const session = (await landAndReadBack(store, { cwd: tempDir(), title: 'plain', messages: [{ role: 'user', content: 'x' }] })).session;
    const handlers = createWorkspaceHandlers(store);
    for (const call of [
      () => handlers.diff({ sessionId: session.id }),
      () => handlers.file({ sessionId: session.id, path: 'a.txt' }),
      () => handlers.rehydrate({ action: 'take-file', sessionId: session.id, path: 'a.txt' }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining(session.id) });
    }
  });

  it('an unknown session id is NOT_FOUND from the store', async () => {
    await expect(createWorkspaceHandlers(store).status({ sessionId: 's-nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a worktree cannot be made when the patch was too large to store: NOT_FOUND, nothing logged', async () => {
    const { sessionId } = await handedOffRepo();
    const doc = await store.getSession(sessionId);
    const workspace = doc.workspace!;
    const git = workspace.git!;
    await store.update(sessionId, doc.revision, (current) => ({ ...current, workspace: { ...workspace, git: { ...git, patch: { ...git.patch!, ref: null } } } }));
    const handlers = createWorkspaceHandlers(store);
    await expect(handlers.rehydrate({ action: 'worktree', sessionId, targetDir: join(tempDir(), 'wt') })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('too large to store'),
    });
    expect((await store.getSession(sessionId)).rehydrationLog).toBeUndefined();
  });

  it('take-file writes the handed-off version and logs it, retrying the log on a real CONFLICT', async () => {
    const { repo, sessionId } = await handedOffRepo();
    repo.write('a.txt', 'drifted\n');
    const handlers = createWorkspaceHandlers(racingStore(store, 2));
    const result = await handlers.rehydrate({ action: 'take-file', sessionId, path: 'a.txt' });
    expect(result.log).toEqual([expect.objectContaining({ step: 'take-file', result: 'applied' })]);
    expect(repo.read('a.txt').toString()).toBe('two\n');
    const doc = await store.getSession(sessionId);
    expect(doc.rehydrationLog).toEqual(result.log);
    expect(doc.competing).toBe(0); // both competing writes landed, and the log after them
  });

  it('gives up with CONFLICT when every retry meets a conflicting writer, logging nothing', async () => {
    const { repo, sessionId } = await handedOffRepo();
    repo.write('a.txt', 'drifted\n');
    const handlers = createWorkspaceHandlers(racingStore(store, MUTATE_CAS_RETRIES + 1));
    await expect(handlers.rehydrate({ action: 'take-file', sessionId, path: 'a.txt' })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await store.getSession(sessionId)).rehydrationLog).toBeUndefined();
  });

  it('file() of a path outside the handoff is refused, not read from disk', async () => {
    const { sessionId } = await handedOffRepo();
    await expect(createWorkspaceHandlers(store).file({ sessionId, path: '../../etc/passwd' })).rejects.toMatchObject({ code: 'WORKSPACE_NOT_IN_HANDOFF', message: expect.stringContaining('../../etc/passwd') });
  });
});
