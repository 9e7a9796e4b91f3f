import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeDurableFs, type DurableFs } from './durable-fs.js';
import { readAheadFs } from './read-ahead-fs.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(os.tmpdir(), 'baton-read-ahead-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Counts the inner fs's readFile calls, so a test sees whether the read-ahead was used. */
function counting(): { fs: DurableFs; reads: string[] } {
  const reads: string[] = [];
  return { reads, fs: { ...nodeDurableFs, readFile: (p) => (reads.push(p), nodeDurableFs.readFile(p)) } };
}

describe('readAheadFs', () => {
  it('returns the bytes read ahead, once, without reading the file again', async () => {
    const path = join(dir, 'index.json');
    await writeFile(path, 'snapshot v1');
    const { fs, reads } = counting();
    const ahead = readAheadFs(fs, [path]);
    expect((await ahead.readFile(path)).toString()).toBe('snapshot v1');
    expect(reads).toEqual([path]);
    // Used once: a second read goes to the disk.
    expect((await ahead.readFile(path)).toString()).toBe('snapshot v1');
    expect(reads).toEqual([path, path]);
  });

  it('a file replaced after the read-ahead is read again (never stale bytes)', async () => {
    const path = join(dir, 'index.json');
    await writeFile(path, 'snapshot v1');
    const ahead = readAheadFs(nodeDurableFs, [path]);
    await new Promise((r) => setTimeout(r, 20));
    await writeFile(join(dir, 'tmp'), 'snapshot v2, longer');
    await rename(join(dir, 'tmp'), path);
    expect((await ahead.readFile(path)).toString()).toBe('snapshot v2, longer');
  });

  it('a missing file fails as the inner fs fails (ENOENT), and other paths pass through', async () => {
    const path = join(dir, 'none.json');
    const ahead = readAheadFs(nodeDurableFs, [path]);
    await expect(ahead.readFile(path)).rejects.toMatchObject({ code: 'ENOENT' });
    await writeFile(join(dir, 'other'), 'x');
    expect((await ahead.readFile(join(dir, 'other'))).toString()).toBe('x');
  });

  it('keeps every method of a class-based fs (methods on the prototype, as the tests\' fault injectors have)', async () => {
    class PrototypeFs {
      readFile(path: string): Promise<Buffer> {
        return nodeDurableFs.readFile(path);
      }
      existsSync(path: string): boolean {
        return nodeDurableFs.existsSync(path);
      }
      stat(path: string) {
        return nodeDurableFs.stat(path);
      }
    }
    const path = join(dir, 'index.json');
    await writeFile(path, 'snapshot');
    const ahead = readAheadFs(Object.assign(new PrototypeFs(), {}) as unknown as DurableFs, [path]);
    expect(ahead.existsSync(path)).toBe(true);
    expect(ahead.existsSync(join(dir, 'missing'))).toBe(false);
    expect((await ahead.readFile(path)).toString()).toBe('snapshot');
  });
});
