import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onMemoryFilesystem } from '../fs/memory-filesystem.js';
import { listingsDir, runtimeListingsDir } from '../paths.js';
import { listingPlace } from './listing-place.js';

// Issue 17: where a host renders the listings it hands the CLI. Only an encrypted store's, with the
// endpoint's directory in memory and outside the data directory, goes there in the clear.
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-listing-place-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const memory = () => true;
const disk = () => false;

describe('listingPlace', () => {
  it('keeps a plain store\'s listings in its data directory, unsealed, wherever the endpoint is', () => {
    for (const inMemory of [memory, disk]) {
      expect(listingPlace('/d/baton', '/run/user/1000/baton', false, inMemory)).toEqual({ dir: listingsDir('/d/baton'), seal: false });
    }
  });

  it('puts an encrypted store\'s listings in the clear only in an endpoint directory in memory and outside the data directory', () => {
    expect(listingPlace('/d/baton', '/run/user/1000/baton', true, memory)).toEqual({ dir: runtimeListingsDir('/run/user/1000/baton'), seal: false });
    // On a disk: sealed in the data directory.
    expect(listingPlace('/d/baton', '/run/user/1000/baton', true, disk)).toEqual({ dir: listingsDir('/d/baton'), seal: true });
    // The endpoint inside the data directory (no XDG_RUNTIME_DIR: <data>/run), even on a memory
    // filesystem: every file under the data directory is sealed or allow-listed.
    for (const endpointDir of ['/d/baton/run', '/d/baton', '/d/baton/./x/../run', '/d/baton/run/']) {
      expect(listingPlace('/d/baton', endpointDir, true, memory), endpointDir).toEqual({ dir: listingsDir('/d/baton'), seal: true });
    }
    // A sibling whose name starts like the data directory's, or with dots, is outside it.
    expect(listingPlace('/d/baton', '/d/baton-run', true, memory).seal).toBe(false);
    expect(listingPlace('/d/baton', '/d/baton/..run', true, memory).seal).toBe(true);
    expect(listingPlace('/d/baton/sub', '/d/baton/..run', true, memory).seal).toBe(false);
  });

  it('follows symbolic links: an endpoint directory that leads into the data directory is inside it', async () => {
    const data = join(root, 'data');
    await mkdir(join(data, 'run'), { recursive: true });
    const link = join(root, 'runtime-link');
    await symlink(join(data, 'run'), link);
    expect(listingPlace(data, link, true, memory)).toEqual({ dir: listingsDir(data), seal: true });
    const dataLink = join(root, 'data-link');
    await symlink(data, dataLink);
    expect(listingPlace(dataLink, join(data, 'run'), true, memory)).toEqual({ dir: listingsDir(dataLink), seal: true });
    await mkdir(join(root, 'elsewhere'));
    expect(listingPlace(data, join(root, 'elsewhere'), true, memory).seal).toBe(false);
  });
});

describe('onMemoryFilesystem', () => {
  it('is false off Linux, and for a directory that is not there', () => {
    expect(onMemoryFilesystem('/dev/shm', 'darwin')).toBe(false);
    expect(onMemoryFilesystem('/dev/shm', 'win32')).toBe(false);
    expect(onMemoryFilesystem(join(root, 'missing'), 'linux')).toBe(false);
  });

  it.skipIf(process.platform !== 'linux')('tells Linux\'s tmpfs (/dev/shm, /run where mounted so) from a disk (/proc/mounts says which is which)', async () => {
    const { readFile } = await import('node:fs/promises');
    // Mount points written with octal escapes (a space is \040) or gone from this namespace are left out.
    const mounts = (await readFile('/proc/mounts', 'utf8')).split('\n').map((line) => line.split(' ')).filter((f) => f.length > 2 && !f[1]!.includes('\\') && existsSync(f[1]!));
    const tmpfs = mounts.filter((f) => f[2] === 'tmpfs').map((f) => f[1]!);
    const disks = mounts.filter((f) => ['ext4', 'ext3', 'xfs', 'btrfs', 'overlay'].includes(f[2]!)).map((f) => f[1]!);
    expect(tmpfs.length + disks.length).toBeGreaterThan(0);
    for (const dir of tmpfs) expect(onMemoryFilesystem(dir), dir).toBe(true);
    for (const dir of disks) expect(onMemoryFilesystem(dir), dir).toBe(false);
  });
});
