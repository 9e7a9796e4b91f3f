import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { delegatingFs } from '../fs/delegating-fs.js';
import { nodeDurableFs } from '../fs/durable-fs.js';
import { openStore } from './index.js';
import { SESSIONS_DIR } from './layout.js';
import { makeTempDir } from './test-support/temp-dir.js';

/** How long the test waits for the open while the sweep's listing of sessions/ is held. */
const OPEN_WAIT_MS = 5_000;

let tmp: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(async () => tmp.cleanup());

describe("the open's sweep of dead writers' temp files", () => {
  it('runs beside the caller: the open does not wait for it, close() does, and the leftovers are gone after', async () => {
    const root = join(tmp.dir, 'store');
    await (await openStore(root, { keyStore: null })).close();
    // A process that has exited: its pid names leftovers nobody will finish.
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
    const leftover = join(root, SESSIONS_DIR, `.session.json.${deadPid}.0123abcd.tmp`);
    const staging = join(root, SESSIONS_DIR, `.s-dead-0123456789abcdef.${deadPid}.89abcdef.creating`);
    await writeFile(leftover, 'half written');
    await mkdir(join(staging, 'artifacts'), { recursive: true });

    let releaseListing!: () => void;
    const listingHeld = new Promise<void>((resolve) => (releaseListing = resolve));
    const fs = delegatingFs(nodeDurableFs, {
      readdir: async (path) => {
        if (path === join(root, SESSIONS_DIR)) await listingHeld;
        return nodeDurableFs.readdir(path);
      },
    });
    const opening = openStore(root, { keyStore: null, fs });
    const opened = await Promise.race([opening.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), OPEN_WAIT_MS))]);
    releaseListing();
    expect(opened).toBe(true);
    const store = await opening;
    await store.close();
    expect(existsSync(leftover)).toBe(false);
    expect(existsSync(staging)).toBe(false);
  }, 20_000);
});
