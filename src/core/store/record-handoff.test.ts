import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { delegatingFs } from '../fs/delegating-fs.js';
import { nodeDurableFs } from '../fs/durable-fs.js';
import { openStore } from './index.js';
import { HANDOFFS_FILE, HANDOFF_FILE } from './layout.js';
import { makeTempDir } from './test-support/temp-dir.js';
import { fileWithSync } from './test-support/file-with-sync.js';

/** How long the latest manifest's fsync waits for the history's to start before the test calls the writes sequential. */
const OVERLAP_WAIT_MS = 5_000;

let tmp: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(async () => tmp.cleanup());

describe('recordHandoff', () => {
  it('writes handoff.json and the history line side by side, both durable before it returns', async () => {
    let historySyncStarted!: () => void;
    const historySyncing = new Promise<void>((resolve) => (historySyncStarted = resolve));
    let overlapped = false;
    const synced: string[] = [];
    const fs = delegatingFs(nodeDurableFs, {
      open: async (path, flags, mode) => {
        const file = await nodeDurableFs.open(path, flags, mode);
        const name = path.split('/').pop()!;
        if (name === HANDOFFS_FILE) {
          return fileWithSync(file, async () => {
            historySyncStarted();
            await file.sync();
            synced.push(HANDOFFS_FILE);
          });
        }
        if (name.startsWith(`.${HANDOFF_FILE}.`)) {
          // The temporary file of handoff.json: its fsync holds until the history's fsync has started.
          return fileWithSync(file, async () => {
            overlapped = await Promise.race([historySyncing.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), OVERLAP_WAIT_MS))]);
            await file.sync();
            synced.push(HANDOFF_FILE);
          });
        }
        return file;
      },
    });
    const store = await openStore(join(tmp.dir, 'store'), { keyStore: null, fs });
    const s = await store.createSession({ cwd: '/w', gitRoot: null, branch: null, title: 't', source: { tool: 'baton' }, holder: 'terminal' });
    await store.recordHandoff(s.id, { handoff_id: 'h-1' });
    expect(overlapped).toBe(true);
    expect(synced.sort()).toEqual([HANDOFF_FILE, HANDOFFS_FILE]);
    expect(JSON.parse(await readFile(join(store.sessionDir(s.id), HANDOFF_FILE), 'utf8'))).toEqual({ handoff_id: 'h-1' });
    expect((await readFile(join(store.sessionDir(s.id), HANDOFFS_FILE), 'utf8')).trim().split('\n').map((l) => JSON.parse(l))).toEqual([{ handoff_id: 'h-1' }]);
    await store.close();
  }, 20_000);
});
