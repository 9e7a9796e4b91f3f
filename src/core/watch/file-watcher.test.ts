import { mkdtemp, mkdir, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_WATCHED_FILES, watchFiles, type FileWatch } from './file-watcher.js';
import { createSessionWatches } from './session-watches.js';

let dir: string;
const open: Array<{ close(): Promise<void> }> = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-watch-'));
  await mkdir(join(dir, 'src'));
  await writeFile(join(dir, 'a.txt'), 'a\n');
  await writeFile(join(dir, 'src', 'b.ts'), 'b\n');
  await writeFile(join(dir, 'other.txt'), 'x\n');
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((w) => w.close()));
  await rm(dir, { recursive: true, force: true });
});

function nextBatch(start: (onChange: (paths: string[]) => void) => FileWatch): { watch: FileWatch; batch: Promise<string[]> } {
  let resolve!: (paths: string[]) => void;
  const batch = new Promise<string[]>((r) => (resolve = r));
  const watch = start((paths) => resolve(paths));
  open.push(watch);
  return { watch, batch };
}

/** node:fs watch handles open in this process (one per inotify / FSEvents / ReadDirectoryChanges watch). */
const watchHandles = () => process.getActiveResourcesInfo().filter((r) => r === 'FSEventWrap').length;

describe('watchFiles (real files, node:fs watch)', () => {
  it('reports an edited watched file, and not an unwatched neighbour', async () => {
    const seen: string[][] = [];
    const watch = watchFiles([join(dir, 'a.txt'), join(dir, 'src', 'b.ts')], (paths) => seen.push(paths), { debounceMs: 50 });
    open.push(watch);
    await watch.ready;
    await writeFile(join(dir, 'other.txt'), 'y\n');
    await writeFile(join(dir, 'src', 'b.ts'), 'changed\n');
    await expect.poll(() => seen.flat(), { timeout: 5_000 }).toContain(join(dir, 'src', 'b.ts'));
    expect(seen.flat()).not.toContain(join(dir, 'other.txt'));
  });

  it('sees a file replaced by rename (how editors save) and a deleted file', async () => {
    const { watch, batch } = nextBatch((cb) => watchFiles([join(dir, 'a.txt')], cb, { debounceMs: 50 }));
    await watch.ready;
    await writeFile(join(dir, 'a.txt.tmp'), 'new\n');
    await rename(join(dir, 'a.txt.tmp'), join(dir, 'a.txt'));
    expect(await batch).toEqual([join(dir, 'a.txt')]);
    const seen: string[][] = [];
    const second = watchFiles([join(dir, 'src', 'b.ts')], (p) => seen.push(p), { debounceMs: 50 });
    open.push(second);
    await second.ready;
    await unlink(join(dir, 'src', 'b.ts'));
    await expect.poll(() => seen.flat(), { timeout: 5_000 }).toEqual([join(dir, 'src', 'b.ts')]);
  });

  it('holds one watch per directory, however many neighbours it has, and none after close', async () => {
    // The host watches dataDir/index.json beside the store's temp files, event lines and receipts:
    // a watch per neighbour (chokidar's) turned each of their writes into main-thread work.
    await Promise.all(Array.from({ length: 30 }, (_, i) => writeFile(join(dir, `neighbour-${i}.tmp`), 'n\n')));
    const before = watchHandles();
    const watch = watchFiles([join(dir, 'a.txt'), join(dir, 'other.txt'), join(dir, 'src', 'b.ts')], () => undefined);
    open.push(watch);
    await watch.ready;
    expect(watchHandles() - before).toBe(2);
    await watch.close();
    await expect.poll(watchHandles, { timeout: 2_000 }).toBe(before); // a handle closes on the next turn of the loop
  });

  it('sees a watched file deleted and then created again', async () => {
    const seen: string[][] = [];
    const watch = watchFiles([join(dir, 'a.txt')], (p) => seen.push(p), { debounceMs: 20 });
    open.push(watch);
    await watch.ready;
    await unlink(join(dir, 'a.txt'));
    await expect.poll(() => seen.flat(), { timeout: 5_000 }).toEqual([join(dir, 'a.txt')]);
    await writeFile(join(dir, 'a.txt'), 'back\n');
    await expect.poll(() => seen.flat(), { timeout: 5_000 }).toEqual([join(dir, 'a.txt'), join(dir, 'a.txt')]);
  });

  it('sees a file in a directory that is not there yet, once the directories above it are made', async () => {
    const seen: string[][] = [];
    const target = join(dir, 'gone', 'deeper', 'c.txt');
    const watch = watchFiles([target], (p) => seen.push(p), { debounceMs: 20 });
    open.push(watch);
    await watch.ready;
    await mkdir(join(dir, 'gone'));
    await new Promise((r) => setTimeout(r, 50));
    await mkdir(join(dir, 'gone', 'deeper'));
    await new Promise((r) => setTimeout(r, 50));
    await writeFile(target, 'new\n');
    await expect.poll(() => seen.flat().includes(target), { timeout: 5_000 }).toBe(true);
    const reported = seen.flat().length;
    await writeFile(target, 'edited\n');
    await expect.poll(() => seen.flat().length, { timeout: 5_000 }).toBeGreaterThan(reported);
  });

  it('keeps watching a directory removed and made again (a branch switch), and a neighbour of its name changes nothing', async () => {
    const seen: string[][] = [];
    const target = join(dir, 'src', 'b.ts');
    const watch = watchFiles([target], (p) => seen.push(p), { debounceMs: 20 });
    open.push(watch);
    await watch.ready;
    await rm(join(dir, 'src'), { recursive: true });
    await expect.poll(() => seen.flat(), { timeout: 5_000 }).toContain(target);
    await mkdir(join(dir, 'src'));
    await new Promise((r) => setTimeout(r, 50));
    const before = seen.flat().length;
    await writeFile(target, 'after the switch\n');
    await expect.poll(() => seen.flat().length, { timeout: 5_000 }).toBeGreaterThan(before);
    // A child named like its directory (src/src) is not the directory going away.
    const settled = seen.flat().length;
    await writeFile(join(dir, 'src', 'src'), 'x\n');
    await rm(join(dir, 'src', 'src'));
    await writeFile(target, 'still watched\n');
    await expect.poll(() => seen.flat().length, { timeout: 5_000 }).toBeGreaterThan(settled);
  });

  it('reports nothing after close, and refuses more than the limit', async () => {
    const seen: string[][] = [];
    const watch = watchFiles([join(dir, 'a.txt')], (p) => seen.push(p), { debounceMs: 20 });
    await watch.ready;
    await watch.close();
    await writeFile(join(dir, 'a.txt'), 'after close\n');
    await new Promise((r) => setTimeout(r, 300));
    expect(seen).toEqual([]);
    const many = Array.from({ length: MAX_WATCHED_FILES + 1 }, (_, i) => join(dir, `f${i}`));
    expect(() => watchFiles(many, () => undefined)).toThrow(/limit/);
  });
});

describe('createSessionWatches', () => {
  it('shares one file watch per session, reports paths relative to the root, closes with the last holder', async () => {
    const drift: Array<{ sessionId: string; paths: string[] }> = [];
    const watches = createSessionWatches({
      resolve: async (id) => (id === 's1' ? { root: dir, files: [join(dir, 'src', 'b.ts')] } : null),
      onDrift: (sessionId, paths) => drift.push({ sessionId, paths }),
      debounceMs: 50,
    });
    open.push(watches);
    const one = await watches.start('s1');
    const two = await watches.start('s1');
    expect(one.watching).toBe(1);
    expect(watches.openCount()).toBe(1);
    expect((await watches.start('no-workspace')).watching).toBe(0);
    await writeFile(join(dir, 'src', 'b.ts'), 'drifted\n');
    await expect.poll(() => drift, { timeout: 5_000 }).toEqual([{ sessionId: 's1', paths: ['src/b.ts'] }]);
    await watches.stop(one.watchId);
    expect(watches.openCount()).toBe(2);
    await watches.stop(two.watchId);
    await watches.stop(two.watchId);
    expect(watches.openCount()).toBe(1); // the no-workspace view still holds its (empty) watch
  });

  it('a holder that stops renewing loses its watch; a renewed one keeps it', async () => {
    let clock = 1_000;
    const watches = createSessionWatches({ resolve: async () => ({ root: dir, files: [join(dir, 'a.txt')] }), onDrift: () => undefined, leaseMs: 100, now: () => clock });
    open.push(watches);
    const kept = await watches.start('s1');
    const dropped = await watches.start('s2');
    expect(kept.leaseMs).toBe(100);
    clock += 80;
    expect(watches.renew(kept.watchId)).toEqual({ watchId: kept.watchId, watching: 1, leaseMs: 100 });
    clock += 50; // s2's lease ran out, s1's was renewed
    await watches.sweep();
    expect(watches.openCount()).toBe(1);
    expect(watches.renew(dropped.watchId)).toBeNull();
    clock += 200;
    await watches.sweep();
    expect(watches.openCount()).toBe(0);
    expect(watches.renew(kept.watchId)).toBeNull();
  });
});
