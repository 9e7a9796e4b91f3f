import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { OfferConnection } from './receiver.js';

/** Every child process this (host) process starts itself: spawn and execFile, the two git starts use. */
const started = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:child_process', async (importOriginal) => {
  const { countingChildProcess } = await import('../workspace/test-support/counting-child-process.js');
  return countingChildProcess(await importOriginal<typeof import('node:child_process')>(), started);
});

const { createReceiver } = await import('./receiver.js');
const { GitSpawner } = await import('../workspace/git-spawner.js');
const { createHandoffFixture } = await import('./test-support/handoff-fixture.js');
const { git } = await import('../workspace/test-support/repo.js');
const { captureWorkspaceWithPatch } = await import('../workspace/capture.js');

const connection = { signal: new AbortController().signal };
let fixture: Awaited<ReturnType<typeof createHandoffFixture>>;
let spawner: InstanceType<typeof GitSpawner>;

beforeEach(async () => {
  fixture = await createHandoffFixture();
  await writeFile(join(fixture.workDir, 'a.txt'), 'one\n');
  git(fixture.workDir, 'init', '-q', '-b', 'main');
  git(fixture.workDir, 'add', '-A');
  git(fixture.workDir, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-qm', 'start');
  await writeFile(join(fixture.workDir, 'a.txt'), 'two\n');
  spawner = new GitSpawner().start();
});
afterEach(async () => {
  spawner.close();
  await fixture.dispose();
});

const receiverWith = (gitSpawner?: InstanceType<typeof GitSpawner>) =>
  createReceiver({ store: fixture.store, capabilities: ['conversation', 'diff-viewer'], holder: 'desktop', ...(gitSpawner ? { gitSpawner } : {}) });

describe.skipIf(process.platform === 'win32')("receiver: the workspace verdict's git runs from the host's spawner (issue 20)", () => {
  it('an offer starts no child of the host: the verdict comes from the spawner, the same as from a spawn', async () => {
    const first = await fixture.landed();
    const second = await fixture.landed();
    const before = { host: started.count, batches: spawner.batchesRun };
    const viaSpawner = await receiverWith(spawner)({ id: 'a', method: 'handoff.offer', params: { manifest: first.manifest } }, connection);
    expect(started.count - before.host).toBe(0);
    expect(spawner.batchesRun - before.batches).toBe(1);
    // Without it, the host starts the verdict's git itself, and finds the same.
    const direct = await receiverWith()({ id: 'b', method: 'handoff.offer', params: { manifest: second.manifest } }, connection);
    expect(started.count - before.host).toBeGreaterThan(0);
    expect(viaSpawner).toMatchObject({ status: 'accepted', workspace: { status: 'complete', drifted: [] } });
    expect(direct).toMatchObject({ status: 'accepted', workspace: { status: 'complete', drifted: [] } });
  });

  it('a spawner whose shell died gives the verdict from a new shell (one child of the host: that shell)', async () => {
    const { manifest } = await fixture.landed();
    await writeFile(join(fixture.workDir, 'a.txt'), 'three\n');
    const pid = spawner.pid!;
    process.kill(pid, 'SIGKILL');
    // Once the spawner has seen the exit, the next batch starts a new shell.
    await vi.waitFor(() => expect(spawner.pid).toBeUndefined(), { timeout: 10_000 });
    const before = { host: started.count, batches: spawner.batchesRun };
    expect(await receiverWith(spawner)({ id: 'c', method: 'handoff.offer', params: { manifest } }, connection)).toMatchObject({
      status: 'accepted',
      workspace: { status: 'partial', drifted: ['a.txt'] },
    });
    expect(spawner.batchesRun - before.batches).toBe(1);
    expect(started.count - before.host).toBe(1);
    expect(spawner.pid).not.toBe(pid);
  });

  it('a spawner that cannot run the batch (closed) still gives the verdict: the host runs the git itself', async () => {
    const { manifest } = await fixture.landed();
    await writeFile(join(fixture.workDir, 'a.txt'), 'three\n');
    spawner.close();
    const before = { host: started.count, batches: spawner.batchesRun };
    expect(await receiverWith(spawner)({ id: 'd', method: 'handoff.offer', params: { manifest } }, connection)).toMatchObject({
      status: 'accepted',
      workspace: { status: 'partial', drifted: ['a.txt'] },
    });
    expect(spawner.batchesRun - before.batches).toBe(0);
    expect(started.count - before.host).toBeGreaterThan(0);
  });
  it("a hosted handoff's offer carries its own capture: the verdict asks no git at all, and still sees a file edited since", async () => {
    const { manifest } = await fixture.landed();
    const edited = await fixture.landed();
    const { observed } = await captureWorkspaceWithPatch(fixture.workDir);
    // Its clock set at each offer: the check is of what the verdict uses, not of this machine's speed.
    const hosted = (): OfferConnection => ({ ...connection, observedWorkspace: { ...observed!, at: Date.now() } });
    const before = { host: started.count, batches: spawner.batchesRun };
    expect(await receiverWith(spawner)({ id: 'e', method: 'handoff.offer', params: { manifest } }, hosted())).toMatchObject({
      status: 'accepted',
      workspace: { status: 'complete', drifted: [] },
    });
    await writeFile(join(fixture.workDir, 'a.txt'), 'three\n');
    expect(await receiverWith(spawner)({ id: 'f', method: 'handoff.offer', params: { manifest: edited.manifest } }, hosted())).toMatchObject({
      status: 'accepted',
      workspace: { status: 'partial', drifted: ['a.txt'] },
    });
    expect(spawner.batchesRun - before.batches).toBe(0);
    expect(started.count - before.host).toBe(0);
  });
});
