import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { delegatingFs } from '../fs/delegating-fs.js';
import { nodeDurableFs } from '../fs/durable-fs.js';
import { openStore } from './index.js';
import { ARTIFACT_SYNCS_IN_FLIGHT } from './landing-writer.js';
import { MESSAGES_FILE } from './message-log.js';
import { makeTempDir } from './test-support/temp-dir.js';
import { fileWithSync } from './test-support/file-with-sync.js';

/** How long an artifact's fsync waits for the log's to start before the test calls the syncs sequential. */
const OVERLAP_WAIT_MS = 5_000;

let tmp: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(async () => tmp.cleanup());


const init = { cwd: '/w', gitRoot: null, branch: null, title: 't', source: { tool: 'baton' as const }, holder: 'terminal' };

describe('a landing\'s fsyncs (issue 20: one journal commit, not one per file)', () => {
  it('syncs the artifacts beside the log, and every one is durable before the session exists', async () => {
    let logSyncStarted!: () => void;
    const logSyncing = new Promise<void>((resolve) => (logSyncStarted = resolve));
    const overlapped: boolean[] = [];
    const synced: string[] = [];
    let sessionsEntriesAtLogSync: string[] | undefined;
    const fs = delegatingFs(nodeDurableFs, {
      open: async (path, flags, mode) => {
        const file = await nodeDurableFs.open(path, flags, mode);
        const name = path.split("/").pop()!;
        if (name === MESSAGES_FILE && flags === 'wx') {
          return fileWithSync(file, async () => {
            sessionsEntriesAtLogSync = await readdir(join(tmp.dir, "store", "sessions"));
            logSyncStarted();
            await file.sync();
            synced.push(name);
          });
        }
        if (path.includes('/artifacts/') && flags === 'wx') {
          // An artifact's fsync holds until the log's has started: sequential syncs would wait here in vain.
          return fileWithSync(file, async () => {
            overlapped.push(await Promise.race([logSyncing.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), OVERLAP_WAIT_MS))]));
            await file.sync();
            synced.push(name);
          });
        }
        return file;
      },
    });
    const store = await openStore(join(tmp.dir, 'store'), { keyStore: null, fs });
    const artifacts = [{ bytes: Buffer.from('one'), extension: 'txt' }, { bytes: Buffer.from('two'), extension: 'txt' }];
    const s = await store.createSession(init, [{ role: 'user', content: 'hello' }], artifacts);
    expect(overlapped).toEqual([true, true]);
    // Nothing was visible while they synced: only the staging directory existed.
    expect(sessionsEntriesAtLogSync!.every((name) => name.endsWith('.creating'))).toBe(true);
    expect(synced.sort()).toEqual([MESSAGES_FILE, ...(await readdir(join(store.sessionDir(s.id), 'artifacts')))].sort());
    await store.close();
  }, 20_000);

  it('writes and syncs session.json beside the log\'s fsync, and renames the session into place only after both', async () => {
    let docSyncStarted!: () => void;
    const docSyncing = new Promise<void>((resolve) => (docSyncStarted = resolve));
    let overlapped: boolean | undefined;
    const order: string[] = [];
    const fs = delegatingFs(nodeDurableFs, {
      open: async (path, flags, mode) => {
        const file = await nodeDurableFs.open(path, flags, mode);
        const name = path.split('/').pop()!;
        if (name === MESSAGES_FILE && flags === 'wx') {
          // The log's fsync holds until session.json's has started: one after the other would wait here in vain.
          return fileWithSync(file, async () => {
            overlapped = await Promise.race([docSyncing.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), OVERLAP_WAIT_MS))]);
            await file.sync();
            order.push('log synced');
          });
        }
        if (name.startsWith('.session.json.') && path.includes('.creating')) {
          return fileWithSync(file, async () => {
            docSyncStarted();
            await file.sync();
            order.push('doc synced');
          });
        }
        return file;
      },
      rename: async (from, to) => {
        if (from.endsWith('.creating')) order.push('session renamed into place');
        await nodeDurableFs.rename(from, to);
      },
    });
    const store = await openStore(join(tmp.dir, 'store'), { keyStore: null, fs });
    const s = await store.createSession(init, [{ role: 'user', content: 'hello' }]);
    expect(overlapped).toBe(true);
    expect(order.at(-1)).toBe('session renamed into place');
    expect(order.slice(0, 2).sort()).toEqual(['doc synced', 'log synced']);
    expect(await store.getSession(s.id)).toMatchObject({ id: s.id, messageCount: 1 });
    await store.close();
  }, 20_000);

  it(`holds at most ${ARTIFACT_SYNCS_IN_FLIGHT} artifact files open while they sync`, async () => {
    let open = 0;
    let most = 0;
    const fs = delegatingFs(nodeDurableFs, {
      open: async (path, flags, mode) => {
        const file = await nodeDurableFs.open(path, flags, mode);
        if (!path.includes('/artifacts/') || flags !== 'wx') return file;
        most = Math.max(most, ++open);
        return { ...fileWithSync(file, async () => {
          await new Promise((resolve) => setTimeout(resolve, 2));
          await file.sync();
        }), close: async () => {
          open--;
          await file.close();
        } };
      },
    });
    const store = await openStore(join(tmp.dir, 'store'), { keyStore: null, fs });
    const artifacts = Array.from({ length: 40 }, (_, i) => ({ bytes: Buffer.from(`artifact ${i}`), extension: 'txt' }));
    const s = await store.createSession(init, [{ role: 'user', content: 'hello' }], artifacts);
    expect(await readdir(join(store.sessionDir(s.id), 'artifacts'))).toHaveLength(40);
    expect(most).toBeLessThanOrEqual(ARTIFACT_SYNCS_IN_FLIGHT + 1);
    expect(open).toBe(0);
    await store.close();
  }, 20_000);

  it('a failed artifact fsync fails the landing and leaves no session', async () => {
    const fs = delegatingFs(nodeDurableFs, {
      open: async (path, flags, mode) => {
        const file = await nodeDurableFs.open(path, flags, mode);
        if (!path.includes('/artifacts/') || flags !== 'wx') return file;
        return fileWithSync(file, async () => {
          throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
        });
      },
    });
    const store = await openStore(join(tmp.dir, 'store'), { keyStore: null, fs });
    await expect(store.createSession(init, [{ role: 'user', content: 'hello' }], [{ bytes: Buffer.from('x'), extension: 'txt' }])).rejects.toMatchObject({ code: expect.any(String) });
    expect((await readdir(join(tmp.dir, "store", "sessions"))).filter((name) => !name.startsWith("."))).toEqual([]);
    await store.close();
  }, 20_000);
});
