import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../store/index.js';
import type { SessionStore } from '../store/types.js';
import { createWorkspaceHandlers } from '../host/workspace-handlers.js';
import { cleanupTemp, makeRepo, tempDir } from '../workspace/test-support/repo.js';
import { captureRunBaseline } from './run-baseline.js';

/** The baseline a desktop run diffs against: real git, a real store, the Changes tab's own handlers. */
let store: SessionStore;
beforeEach(async () => {
  store = await openStore(join(tempDir(), 'store'));
});
afterEach(async () => {
  await store.close();
});
afterAll(cleanupTemp);

const newSession = (cwd: string) => store.createSession({ cwd, gitRoot: null, branch: null, title: 'imported', holder: 'terminal', source: { tool: 'claude', externalId: 'ext-1', path: join(cwd, 'x.jsonl') } });

describe('captureRunBaseline', () => {
  it('keeps the dirty files as they were before the run, so only what the run changes drifts', async () => {
    const repo = makeRepo();
    repo.write('a.txt', 'one\n');
    repo.write('b.txt', 'two\n');
    repo.commitAll('start');
    repo.write('a.txt', 'one, dirty before the run\n');
    repo.write('notes.txt', 'untracked before the run\n');
    const session = await newSession(repo.root);
    expect(await captureRunBaseline(store, session)).toEqual({ kind: 'captured', files: 2 });
    const handlers = createWorkspaceHandlers(store);
    expect((await handlers.status({ sessionId: session.id })).verification?.drifted).toEqual([]);

    // What a run does: edits a committed file, edits a dirty one, makes a new one.
    repo.write('b.txt', 'two, edited by the agent\n');
    repo.write('a.txt', 'one, edited again by the agent\n');
    repo.write('src/new.ts', 'export const made = true;\n');
    const drifted = (await handlers.status({ sessionId: session.id })).verification?.drifted.map((d) => d.path);
    expect(drifted).toEqual(['a.txt', 'b.txt', 'src/new.ts']);
    expect(await handlers.file({ sessionId: session.id, path: 'a.txt', against: 'disk' })).toMatchObject({
      original: { kind: 'text', text: 'one, edited again by the agent\n' },
      modified: { kind: 'text', text: 'one, dirty before the run\n' },
    });
    expect(await handlers.file({ sessionId: session.id, path: 'b.txt', against: 'disk' })).toMatchObject({ original: { text: 'two, edited by the agent\n' }, modified: { text: 'two\n' } });
    expect(await handlers.file({ sessionId: session.id, path: 'src/new.ts', against: 'disk' })).toMatchObject({ original: { text: 'export const made = true;\n' }, modified: { kind: 'absent' } });
  });

  it('a later run keeps the first baseline; a handed-off workspace is never replaced', async () => {
    const repo = makeRepo();
    repo.write('a.txt', 'one\n');
    repo.commitAll('start');
    const session = await newSession(repo.root);
    await captureRunBaseline(store, session);
    const first = (await store.getSession(session.id)).workspace;
    repo.write('a.txt', 'changed by the first run\n');
    expect(await captureRunBaseline(store, await store.getSession(session.id))).toEqual({ kind: 'kept' });
    expect((await store.getSession(session.id)).workspace).toEqual(first);
  });

  it('a directory outside git has no baseline, and the session stays without a workspace', async () => {
    const dir = tempDir('baton-plain-');
    const session = await newSession(dir);
    expect(await captureRunBaseline(store, session)).toEqual({ kind: 'none', reason: `${dir} is not in a git repository` });
    expect((await store.getSession(session.id)).workspace ?? null).toBeNull();
  });

  it('a working directory that is gone is an error naming it (the runner reports it on the run)', async () => {
    const session = await newSession(join(tempDir(), 'gone'));
    await expect(captureRunBaseline(store, session)).rejects.toMatchObject({ code: 'WORKSPACE_CWD_MISSING', message: expect.stringContaining('gone') });
  });
});
